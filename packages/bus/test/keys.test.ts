import test from 'ava';
import { AUTH_DIGESTS_KEY, namespaceKeyToDeltaKey, namespaceKeyToKvKey, namespaceOfKey, parseKvKey } from '../src/index.js';

const NATS_KEY = /^[-/_=.a-zA-Z0-9]+$/;
const namespaces = ['default', 'team,alpha', 'snake_case', 'kebab-case', 'Default', 'DEFAULT', 'ünïcode ns', 'a.b>c*', 'd'];

test('namespace keys with commas, underscores, dashes and capitals map to valid, distinct, reversible KV keys', (t) => {
  const keys = namespaces.map(namespaceKeyToKvKey);
  for (const [i, key] of keys.entries()) {
    t.regex(key, NATS_KEY);
    t.true(key.startsWith('ns.'));
    t.is(namespaceOfKey(key), namespaces[i]);
    t.deepEqual(parseKvKey(key), { namespaceKey: namespaces[i], kind: 'hydration' });
  }
  t.is(new Set(keys).size, namespaces.length, 'case-sensitive: Default and default differ');
});

test("a namespace's delta key sits under the same ns.> filter, next to its hydration key, and never collides with another's", (t) => {
  const hydrations = namespaces.map(namespaceKeyToKvKey);
  const deltas = namespaces.map(namespaceKeyToDeltaKey);
  for (const [i, key] of deltas.entries()) {
    t.regex(key, NATS_KEY);
    t.is(key, `${hydrations[i]}.d`);
    t.deepEqual(parseKvKey(key), { namespaceKey: namespaces[i], kind: 'delta' });
    t.is(namespaceOfKey(key), namespaces[i]);
  }
  t.is(new Set([...hydrations, ...deltas]).size, namespaces.length * 2);
});

test('keys outside the namespace space are not namespaces, including the reserved auth key', (t) => {
  t.is(AUTH_DIGESTS_KEY, 'auth.digests');
  t.regex(AUTH_DIGESTS_KEY, NATS_KEY);
  t.is(namespaceOfKey(AUTH_DIGESTS_KEY), undefined);
  for (const other of ['ns', 'nsx.ZGVmYXVsdA', 'ns.ZGVmYXVsdA.x', 'ns.ZGVmYXVsdA.d.d']) t.is(parseKvKey(other), undefined, other);
});
