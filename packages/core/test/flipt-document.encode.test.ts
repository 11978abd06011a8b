import test from 'ava';
import { decodeFliptDocuments, encodeFliptDocument, type FliptDocument } from '../src/index.js';
import { fixtureValues } from './flipt-fixtures.js';

const decodeOne = (value: unknown): FliptDocument => {
  const [doc] = decodeFliptDocuments([value]);
  if (doc === undefined) throw new Error('no document');
  return doc;
};

/** The mappings' keys in the order written, at every depth: what a YAML or JSON writer prints. */
const text = (value: unknown): string => JSON.stringify(value);

test('Flipt\'s export.json decodes and encodes back to itself', (t) => {
  const [expected] = fixtureValues('export.json');
  t.deepEqual(encodeFliptDocument(decodeOne(expected)), expected as Record<string, unknown>);
});

test('--sort-by-key orders flags, segments and variants by key, as Flipt\'s export_sorted.json', (t) => {
  const [expected] = fixtureValues('export_sorted.json') as [Record<string, any>];
  const shuffled = structuredClone(expected);
  shuffled.flags.reverse();
  shuffled.flags.forEach((f: Record<string, any>) => f.variants?.reverse());
  shuffled.segments.reverse();
  const encoded = encodeFliptDocument(decodeOne(shuffled), { sortByKey: true }) as Record<string, any>;
  t.deepEqual(encoded, expected);
  t.deepEqual(encoded.flags.map((f: { key: string }) => f.key), ['FLag2', 'flag1', 'flag2']);
  t.deepEqual(encoded.flags[1].variants.map((v: { key: string }) => v.key), ['foo', 'variant1']);
  const unsorted = encodeFliptDocument(decodeOne(shuffled)) as Record<string, any>;
  t.deepEqual(unsorted.flags.map((f: { key: string }) => f.key), ['flag2', 'flag1', 'FLag2']);
});

test('fields in the order Flipt\'s exporter writes them; zero values left out as Go\'s omitempty does', (t) => {
  const doc: FliptDocument = {
    namespace: { key: 'prod', name: 'Production', description: '' },
    flags: [
      {
        key: 'color',
        name: 'Color',
        type: 'VARIANT_FLAG_TYPE',
        description: '',
        enabled: false,
        metadata: { z: 1, a: { y: true, b: null } },
        variants: [
          { key: 'blue', name: '', description: '', default: false, attachment: undefined },
          { key: 'red', name: 'Red', description: 'warm', default: true, attachment: { z: [{ b: 1, a: 2 }], a: '' } },
        ],
        rules: [
          { segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2, distributions: [] },
          { segmentKeys: ['a'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1, distributions: [{ variantKey: 'red', rollout: 0 }] },
        ],
        rollouts: [],
      },
      {
        key: 'dark',
        name: 'Dark',
        type: 'BOOLEAN_FLAG_TYPE',
        description: 'd',
        enabled: true,
        metadata: {},
        variants: [],
        rules: [],
        rollouts: [
          { description: '', segment: { segmentKeys: ['a'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: false } },
          { description: 'both', segment: { segmentKeys: ['a', 'b'], segmentOperator: 'AND_SEGMENT_OPERATOR', value: true } },
          { description: 'some', threshold: { percentage: 0, value: false } },
        ],
      },
    ],
    segments: [
      { key: 'a', name: 'A', description: '', matchType: 'ALL_MATCH_TYPE', constraints: [] },
      { key: 'b', name: 'B', description: 'b', matchType: 'ANY_MATCH_TYPE', constraints: [{ type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true', value: '', description: '' }] },
    ],
  };
  t.is(
    text(encodeFliptDocument(doc)),
    text({
      version: '1.4',
      namespace: { key: 'prod', name: 'Production' },
      flags: [
        {
          key: 'color',
          name: 'Color',
          type: 'VARIANT_FLAG_TYPE',
          enabled: false,
          metadata: { a: { b: null, y: true }, z: 1 },
          variants: [{ key: 'blue' }, { default: true, key: 'red', name: 'Red', description: 'warm', attachment: { a: '', z: [{ a: 2, b: 1 }] } }],
          rules: [{ segment: 'a', distributions: [{ variant: 'red', rollout: 0 }] }, { segment: { keys: ['a', 'b'], operator: 'AND_SEGMENT_OPERATOR' } }],
        },
        {
          key: 'dark',
          name: 'Dark',
          type: 'BOOLEAN_FLAG_TYPE',
          description: 'd',
          enabled: true,
          rollouts: [
            { segment: { key: 'a' } },
            { description: 'both', segment: { keys: ['a', 'b'], operator: 'AND_SEGMENT_OPERATOR', value: true } },
            { description: 'some', threshold: { percentage: 0 } },
          ],
        },
      ],
      segments: [
        { key: 'a', name: 'A', match_type: 'ALL_MATCH_TYPE' },
        { key: 'b', name: 'B', description: 'b', constraints: [{ type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' }], match_type: 'ANY_MATCH_TYPE' },
      ],
    }),
  );
});

test('version is written unless asked not to (Flipt writes it on a stream\'s first document only); an empty namespace is a bare namespace', (t) => {
  const doc = decodeOne({ namespace: 'empty' });
  t.deepEqual(encodeFliptDocument(doc), { version: '1.4', namespace: { key: 'empty', name: 'empty' } });
  t.deepEqual(encodeFliptDocument(doc, { withVersion: false }), { namespace: { key: 'empty', name: 'empty' } });
});

test('encode, decode, encode gives the same text for every one of Flipt\'s fixtures', (t) => {
  for (const name of ['export.json', 'export_sorted.json', 'import.json', 'import_v1.json', 'import_v1_3.json', 'import_no_attachment.json', 'import_yaml_stream_all_unique_namespaces.json']) {
    for (const doc of decodeFliptDocuments(fixtureValues(name))) {
      for (const sortByKey of [false, true]) {
        const once = encodeFliptDocument(doc, { sortByKey });
        t.is(text(encodeFliptDocument(decodeOne(once), { sortByKey })), text(once), `${name} sortByKey=${sortByKey}`);
      }
    }
  }
});
