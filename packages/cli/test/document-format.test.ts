import test from 'ava';
import { AppError, decodeFliptDocuments } from '@ensign/core';
import { exportHeader, formatOf, parseDocuments, renderDocuments } from '../src/commands/document-format.js';

const docs = decodeFliptDocuments([
  { namespace: { key: 'b', name: 'B' }, flags: [{ key: 'z', name: 'Z' }, { key: 'a', name: 'A', metadata: { owner: 'web' } }] },
  { namespace: 'a' },
]);

test('.json files are JSON, everything else YAML', (t) => {
  t.is(formatOf('out.json'), 'json');
  t.is(formatOf('OUT.JSON'), 'json');
  t.is(formatOf('features.yml'), 'yaml');
  t.is(formatOf('data.txt'), 'yaml');
  t.is(formatOf(undefined), 'yaml');
});

test('YAML as Flipt\'s exporter writes it: documents split by ---, version on the first only, lists not indented', (t) => {
  t.is(
    renderDocuments(docs, 'yaml', true),
    [
      'version: "1.4"',
      'namespace:',
      '  key: b',
      '  name: B',
      'flags:',
      '- key: a',
      '  name: A',
      '  type: VARIANT_FLAG_TYPE',
      '  enabled: false',
      '  metadata:',
      '    owner: web',
      '- key: z',
      '  name: Z',
      '  type: VARIANT_FLAG_TYPE',
      '  enabled: false',
      '---',
      'namespace:',
      '  key: a',
      '  name: a',
      '',
    ].join('\n'),
  );
});

test('JSON as Flipt\'s exporter writes it: one compact value per line', (t) => {
  const text = renderDocuments(docs, 'json', false);
  t.deepEqual(text.split('\n').map((line) => line.slice(0, 40)), ['{"version":"1.4","namespace":{"key":"b",', '{"namespace":{"key":"a","name":"a"}}', '']);
  t.deepEqual(decodeFliptDocuments(parseDocuments(exportHeader('1.2.3', new Date('2026-01-02T03:04:05.678Z')) + text, 'json')), docs.map(({ origin, ...doc }) => ({ ...doc, origin: { ...origin!, namespaceKey: doc.namespace.key } })));
});

test('the export header is Flipt\'s, with whole seconds', (t) => {
  t.is(exportHeader('1.2.3', new Date('2026-01-02T03:04:05.678Z')), '# exported by Ensign (1.2.3) on 2026-01-02T03:04:05Z\n\n');
});

test('YAML in: every document, comments and merge keys as Go reads them; bad YAML names the document, line and column', (t) => {
  t.deepEqual(parseDocuments('# comment only\n', 'yaml'), []);
  t.deepEqual(parseDocuments('a: 1\n---\n---\nb: &x {k: 1}\nc:\n  <<: *x\n  j: 2\n', 'yaml'), [{ a: 1 }, null, { b: { k: 1 }, c: { k: 1, j: 2 } }]);
  const err = t.throws(() => parseDocuments('a: 1\n---\nflags: [one\n', 'yaml'), { instanceOf: AppError });
  t.regex(err?.message ?? '', /^document 2: not valid YAML: .+ at line \d+, column \d+$/);
});
