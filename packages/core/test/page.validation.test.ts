import test from 'ava';
import {
  decodePageToken,
  encodePageToken,
  validateListInNamespace,
  validateListNamespaces,
  validatePage,
} from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

test('page tokens are padded base64 of {"key","offset"}', (t) => {
  const token = encodePageToken('flag-b', 2);
  t.is(Buffer.from(token, 'base64').toString('utf8'), '{"key":"flag-b","offset":2}');
  t.is(token, 'eyJrZXkiOiJmbGFnLWIiLCJvZmZzZXQiOjJ9');
  t.is(decodePageToken(token), 2);
  t.true(encodePageToken('a', 1).endsWith('='));
});

test('only the offset of a token is read back', (t) => {
  t.is(decodePageToken(b64('{"offset":7}')), 7);
  t.is(decodePageToken(b64('{"key":"whatever","offset":0,"extra":true}')), 0);
  t.is(decodePageToken(b64('{"key":"k"}')), 0);
});

test('bad tokens are a 400 quoting the token', (t) => {
  for (const bad of ['not base64!', 'eyJvZmZzZXQiOjF9X', b64('{"offset":1}').replace(/=+$/, '') + 'x', b64('not json'), b64('[1]'), b64('{"offset":-1}'), b64('{"offset":1.5}'), b64('{"offset":"3"}'), b64('{"key":5}')]) {
    assertInvalid(t, () => decodePageToken(bad), `pageToken is not valid: ${JSON.stringify(bad)}`);
  }
});

test('limit and offset must not be negative', (t) => {
  assertInvalid(t, () => validatePage({ limit: -1, offset: 0, pageToken: '' }, false), 'invalid field limit: must be greater than or equal to 0');
  assertInvalid(t, () => validatePage({ limit: 1, offset: -1, pageToken: '' }, false), 'invalid field offset: must be greater than or equal to 0');
});

test('limit must be set with an offset or token when required', (t) => {
  const msg = 'limit must be set when offset or pageToken is set';
  assertInvalid(t, () => validatePage({ limit: 0, offset: 2, pageToken: '' }, true), msg);
  assertInvalid(t, () => validatePage({ limit: 0, offset: 0, pageToken: encodePageToken('a', 1) }, true), msg);
  assertInvalid(t, () => validateListInNamespace({ namespaceKey: '', page: { limit: 0, offset: 1, pageToken: '' } }), msg);
  t.deepEqual(validatePage({ limit: 0, offset: 2, pageToken: '' }, false), { limit: 0, offset: 2 });
  t.deepEqual(validateListNamespaces({ page: { limit: 0, offset: 0, pageToken: encodePageToken('a', 4) } }), { limit: 0, offset: 4 });
});

test('the token wins over offset', (t) => {
  t.deepEqual(validatePage({ limit: 2, offset: 10, pageToken: encodePageToken('x', 4) }, true), { limit: 2, offset: 4 });
  t.deepEqual(validatePage({ limit: 2, offset: 10, pageToken: '' }, true), { limit: 2, offset: 10 });
});

test('list in namespace resolves the default namespace', (t) => {
  t.deepEqual(validateListInNamespace({ namespaceKey: '', page: { limit: 3, offset: 0, pageToken: '' } }), {
    namespaceKey: 'default',
    page: { limit: 3, offset: 0 },
  });
});
