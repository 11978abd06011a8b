/**
 * From state files to namespaces: YAML streams and JSON value streams, documents of one namespace
 * merged across files (a later file wins per flag and segment key), and every problem reported
 * with the file and the path in it.
 */
import test from 'ava';
import { DeclarativeError, namespaceDocuments, readFeatureFile } from '../../src/declarative/index.js';

const file = (path: string, text: string) => ({ path, content: Buffer.from(text) });

const PROD_SEGMENTS = `
namespace: {key: production, name: Production, description: Live traffic}
segments:
  - key: beta
    name: Beta
    match_type: ANY_MATCH_TYPE
    constraints:
      - {type: STRING_COMPARISON_TYPE, property: plan, operator: eq, value: beta}
`;

const PROD_FLAGS = `
namespace: production
flags:
  - key: color
    name: Color
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants:
      - {key: blue, name: Blue}
      - {key: green, name: Green}
    rules:
      - segment: beta
        distributions:
          - {variant: blue, rollout: 100}
`;

test('a YAML file is a stream of documents; empty documents hold nothing', (t) => {
  const values = readFeatureFile('features.yml', Buffer.from('namespace: a\n---\n---\nnamespace: b\n'));
  t.deepEqual(values, [{ namespace: 'a' }, null, { namespace: 'b' }]);
  t.deepEqual(readFeatureFile('empty.features.yml', Buffer.from('# nothing yet\n')), []);
});

test('a .json file, or one without extension, is a stream of JSON values; other extensions are refused', (t) => {
  t.deepEqual(readFeatureFile('flags.json', Buffer.from('{"namespace":"a"}\n{"namespace":"b"} {"flags":[]}')), [{ namespace: 'a' }, { namespace: 'b' }, { flags: [] }]);
  t.deepEqual(readFeatureFile('features', Buffer.from('{"namespace":"a"}')), [{ namespace: 'a' }]);
  const err = t.throws(() => readFeatureFile('features.toml', Buffer.from('')), { instanceOf: DeclarativeError });
  t.is(err?.message, 'features.toml: unexpected extension: ".toml"');
});

test('unparsable YAML and JSON name the file and where', (t) => {
  const yaml = t.throws(() => readFeatureFile('team/features.yml', Buffer.from('flags:\n  - key: a\n   name: b\n')), { instanceOf: DeclarativeError });
  t.is(yaml?.file, 'team/features.yml');
  t.regex(yaml?.path ?? '', /^line 3, column \d+$/);
  t.regex(yaml?.message ?? '', /^team\/features\.yml: line 3, column \d+: invalid YAML: /);
  const json = t.throws(() => readFeatureFile('flags.json', Buffer.from('{"namespace": "a"}\n{"flags": [}')), { instanceOf: DeclarativeError });
  t.is(json?.file, 'flags.json');
  t.regex(json?.message ?? '', /^flags\.json: document 2: not valid JSON/);
});

test('documents of one namespace merge across files; the default namespace is always there', (t) => {
  const namespaces = namespaceDocuments([file('a.features.yml', PROD_SEGMENTS), file('b.features.yml', PROD_FLAGS)]);
  t.deepEqual([...namespaces.keys()], ['default', 'production']);
  const prod = namespaces.get('production');
  t.deepEqual(prod?.namespace, { key: 'production', name: 'Production', description: 'Live traffic' });
  t.deepEqual(prod?.segments.map((s) => s.key), ['beta']);
  t.deepEqual(prod?.flags.map((f) => f.key), ['color']);
  t.deepEqual(namespaces.get('default'), { namespace: { key: 'default', name: 'Default', description: '' }, flags: [], segments: [] });
});

test('a later file wins per flag and segment key; the namespace keeps the name the first file gave it', (t) => {
  const later = `
namespace: {key: production, name: Renamed}
flags:
  - {key: color, name: Colour, type: VARIANT_FLAG_TYPE, enabled: false}
  - {key: extra, name: Extra, type: BOOLEAN_FLAG_TYPE, enabled: true}
segments:
  - {key: beta, name: Beta testers, match_type: ALL_MATCH_TYPE}
`;
  const prod = namespaceDocuments([file('a.features.yml', PROD_SEGMENTS), file('b.features.yml', PROD_FLAGS), file('c.features.yml', later)]).get('production');
  t.is(prod?.namespace.name, 'Production');
  t.deepEqual(prod?.flags.map((f) => [f.key, f.name, f.enabled]), [['color', 'Colour', false], ['extra', 'Extra', true]]);
  t.deepEqual(prod?.segments.map((s) => [s.key, s.name, s.matchType]), [['beta', 'Beta testers', 'ALL_MATCH_TYPE']]);
});

test('a rule may use a segment another file of the namespace defines; an unknown one names the file, document and path', (t) => {
  t.notThrows(() => namespaceDocuments([file('b.features.yml', PROD_FLAGS), file('z.features.yml', PROD_SEGMENTS)]));
  const err = t.throws(() => namespaceDocuments([file('b.features.yml', PROD_FLAGS)]), { instanceOf: DeclarativeError });
  t.is(err?.file, 'b.features.yml');
  t.is(err?.path, 'flags[0].rules[0].segment');
  t.is(err?.message, 'b.features.yml: document 1 (namespace "production"): flags[0].rules[0].segment: no segment "beta" in namespace "production"');
});

test('a prerequisite may name a flag another file of the namespace defines; one it lacks, or a cycle across files, names the file and path', (t) => {
  const checkout = (parent: string) => `namespace: production\nflags:\n  - {key: checkout, name: Checkout, type: BOOLEAN_FLAG_TYPE, prerequisites: [{flag: ${parent}, variants: [blue]}]}\n`;
  const prod = namespaceDocuments([file('a.features.yml', checkout('color')), file('b.features.yml', PROD_FLAGS), file('c.features.yml', PROD_SEGMENTS)]).get('production');
  t.deepEqual(prod?.flags.find((f) => f.key === 'checkout')?.prerequisites, [{ flagKey: 'color', variants: ['blue'] }]);

  const missing = t.throws(() => namespaceDocuments([file('a.features.yml', checkout('colour')), file('b.features.yml', PROD_FLAGS), file('c.features.yml', PROD_SEGMENTS)]), { instanceOf: DeclarativeError });
  t.is(missing?.file, 'a.features.yml');
  t.is(missing?.message, 'a.features.yml: document 1 (namespace "production"): flags[0].prerequisites[0].flag: no flag "colour" in namespace "production"');

  const back = PROD_FLAGS.replace('    enabled: true\n', '    enabled: true\n    prerequisites: [{flag: checkout, enabled: true}]\n');
  const cycle = t.throws(() => namespaceDocuments([file('a.features.yml', checkout('color')), file('b.features.yml', back), file('c.features.yml', PROD_SEGMENTS)]), { instanceOf: DeclarativeError });
  t.is(cycle?.file, 'a.features.yml');
  t.is(cycle?.path, 'flags[0].prerequisites[0].flag');
  t.regex(cycle?.message ?? '', /forms a cycle: checkout → color → checkout$/);
});

test('a document the decoder refuses names the file, the document and the field', (t) => {
  const bad = 'namespace: staging\n---\nnamespace: staging\nflags:\n  - key: color\n    name: Color\n    type: PURPLE_FLAG_TYPE\n';
  const err = t.throws(() => namespaceDocuments([file('staging/features.yml', bad)]), { instanceOf: DeclarativeError });
  t.is(err?.file, 'staging/features.yml');
  t.is(err?.path, 'flags[0].type');
  t.regex(err?.message ?? '', /^staging\/features\.yml: document 2 \(namespace "staging"\): flags\[0\]\.type: /);
});
