import test from 'ava';
import { otherNamespaceOf } from '../src/lib/document-retarget.js';

test('a document naming another namespace is found before it is sent, in YAML and JSON, whichever way it names it', async (t) => {
  t.is(await otherNamespaceOf('namespace: default\nflags: []\n', 'yaml', 'shop'), 'default');
  t.is(await otherNamespaceOf('version: "1.4"\nnamespace:\n  key: staging\n  name: Staging\n', 'yaml', 'shop'), 'staging');
  t.is(await otherNamespaceOf('flags: []\n---\nnamespace: other\n', 'yaml', 'shop'), 'other', 'any document of a stream');
  t.is(await otherNamespaceOf('# exported\n{"namespace": {"key": "default"}, "flags": []}', 'json', 'shop'), 'default');
  t.is(await otherNamespaceOf('namespace: shop\n', 'yaml', 'shop'), undefined, 'its own namespace');
  t.is(await otherNamespaceOf('flags: []\n', 'yaml', 'shop'), undefined, 'none named');
  t.is(await otherNamespaceOf('namespace:\n  name: Only a name\n', 'yaml', 'shop'), undefined, 'a namespace without a key');
  t.is(await otherNamespaceOf('flags:\n  - key: a\n   name: b\n', 'yaml', 'shop'), undefined, 'what does not parse is left to the service');
  t.is(await otherNamespaceOf('{"namespace": ', 'json', 'shop'), undefined);
});
