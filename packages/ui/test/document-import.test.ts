import test from 'ava';
import { documentFormat, exportFileName, IMPORT_MODES, importQuery, type ImportSummary, previewHeadline, previewSections } from '../src/lib/document-import.js';
import { withoutNamespace } from '../src/lib/document-retarget.js';

const none = { created: [], updated: [], deleted: [], unchanged: [] };

test('each mode asks for its own options; only a preview is a dry run', (t) => {
  t.is(importQuery('add', true), 'drop=false&skipExisting=false&dryRun=true');
  t.is(importQuery('skip-existing', false), 'drop=false&skipExisting=true&dryRun=false');
  t.is(importQuery('replace', false), 'drop=true&skipExisting=false&dryRun=false');
  t.deepEqual(IMPORT_MODES.map(([mode]) => mode), ['add', 'skip-existing', 'replace'], 'the safest mode is offered first');
});

test('a .json file is JSON, any other file YAML; pasted text is JSON when it starts like it', (t) => {
  t.is(documentFormat('version: "1.4"', 'shop.json'), 'json');
  t.is(documentFormat('{"version": "1.4"}', 'shop.YAML'), 'yaml', 'the file name decides, as in Flipt\'s CLI');
  t.is(documentFormat('{"version": "1.4"}', 'export'), 'yaml');
  t.is(documentFormat('  \n{"flags": []}'), 'json');
  t.is(documentFormat('[]'), 'json');
  t.is(documentFormat('version: "1.4"\nflags: []'), 'yaml');
  t.is(documentFormat('# {not json}\nflags: []'), 'yaml');
});

test('an export is saved as <namespace>.yaml', (t) => {
  t.is(exportFileName('shop'), 'shop.yaml');
});

test('the preview lists flags, then segments, each created, updated, deleted, unchanged; empty lists left out', (t) => {
  const summary: ImportSummary = {
    namespace: 'shop',
    flags: { created: ['new-a', 'new-b'], updated: [], deleted: ['old'], unchanged: ['same'] },
    segments: { created: [], updated: ['beta'], deleted: [], unchanged: [] },
  };
  t.deepEqual(
    previewSections(summary).map(({ label, change, keys }) => [label, change, keys]),
    [
      ['Flags created', 'created', ['new-a', 'new-b']],
      ['Flags deleted', 'deleted', ['old']],
      ['Flags left as they are', 'unchanged', ['same']],
      ['Segments updated', 'updated', ['beta']],
    ],
  );
  t.is(new Set(previewSections(summary).map((s) => s.id)).size, 4, 'every list has its own id');
});

test('the headline counts what changes, naming the noun once per kind', (t) => {
  t.is(
    previewHeadline({ namespace: 'shop', flags: { created: ['a', 'b'], updated: ['c'], deleted: ['d', 'e', 'f'], unchanged: ['g'] }, segments: { ...none, created: ['s'] } }),
    '2 flags created, 1 updated, 3 deleted; 1 segment created',
  );
  t.is(previewHeadline({ namespace: 'shop', flags: { ...none, deleted: ['a'] }, segments: none }), '1 flag deleted');
  t.is(previewHeadline({ namespace: 'shop', flags: { ...none, unchanged: ['a'] }, segments: { ...none, unchanged: ['s'] } }), 'No changes');
});

test('a document loses its namespace to import elsewhere; YAML keeps its comments and layout', async (t) => {
  const yaml = '# exported from staging\nversion: "1.4"\nnamespace:\n  key: staging\n  name: Staging\nflags:\n- key: color # the button\n  name: Color\n';
  t.is(await withoutNamespace(yaml, 'yaml'), '# exported from staging\nversion: "1.4"\nflags:\n  - key: color # the button\n    name: Color\n');
  t.is(await withoutNamespace('namespace: staging\nflags: []\n', 'yaml'), 'flags: []\n');
  t.is(await withoutNamespace('# by flipt\n{"version":"1.4","namespace":"staging","flags":[]}', 'json'), '# by flipt\n{\n  "version": "1.4",\n  "flags": []\n}\n');
  t.is(await withoutNamespace('{"flags": [', 'json'), '{"flags": [', 'what does not parse is left for the service to explain');
  t.is(await withoutNamespace('a: [1', 'yaml'), 'a: [1');
});
