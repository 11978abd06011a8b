import test from 'ava';
import { AUTH_DIGESTS_KEY, namespaceKeyToKvKey, namespaceOfKey } from '../src/index.js';

const NATS_KEY = /^[-/_=.a-zA-Z0-9]+$/;

test('namespace keys with commas, underscores, dashes and capitals map to valid, distinct, reversible KV keys', (t) => {
  const namespaces = ['default', 'team,alpha', 'snake_case', 'kebab-case', 'Default', 'DEFAULT', 'ünïcode ns', 'a.b>c*'];
  const keys = namespaces.map(namespaceKeyToKvKey);
  for (const [i, key] of keys.entries()) {
    t.regex(key, NATS_KEY);
    t.true(key.startsWith('ns.'));
    t.is(namespaceOfKey(key), namespaces[i]);
  }
  t.is(new Set(keys).size, namespaces.length, 'case-sensitive: Default and default differ');
});

test('keys outside the namespace space are not namespaces, including the reserved auth key', (t) => {
  t.is(AUTH_DIGESTS_KEY, 'auth.digests');
  t.regex(AUTH_DIGESTS_KEY, NATS_KEY);
  t.is(namespaceOfKey(AUTH_DIGESTS_KEY), undefined);
});
