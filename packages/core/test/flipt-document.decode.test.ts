import test from 'ava';
import { decodeFliptDocuments, type FliptDocument } from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';
import { fixtureValues } from './flipt-fixtures.js';

const decodeOne = (value: unknown): FliptDocument => {
  const [doc] = decodeFliptDocuments([value]);
  if (doc === undefined) throw new Error('no document');
  return doc;
};

/** A valid document, altered by `edit` (which may reach into its flags and segments). */
function documentWith(edit: (doc: Record<string, any>) => void, version = '1.4'): Record<string, unknown> {
  const doc: Record<string, any> = {
    version,
    namespace: { key: 'production', name: 'Production' },
    flags: [
      {
        key: 'color',
        name: 'Color',
        type: 'VARIANT_FLAG_TYPE',
        variants: [{ key: 'blue' }, { key: 'red' }],
        rules: [{ segment: 'beta', distributions: [{ variant: 'blue', rollout: 50 }, { variant: 'red', rollout: 50 }] }],
      },
      {
        key: 'new-ui',
        name: 'New UI',
        type: 'BOOLEAN_FLAG_TYPE',
        rollouts: [{ segment: { key: 'beta', value: true } }, { threshold: { percentage: 25, value: true } }],
      },
    ],
    segments: [{ key: 'beta', name: 'Beta', match_type: 'ANY_MATCH_TYPE', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' }] }],
  };
  edit(doc);
  return doc;
}

const invalid = (t: Parameters<typeof assertInvalid>[0], value: unknown, message: string): void =>
  assertInvalid(t, () => decodeFliptDocuments([value]), message);

test('Flipt\'s import.json: every field in its normalised form', (t) => {
  const doc = decodeOne(fixtureValues('import.json')[0]);
  t.deepEqual(doc.namespace, { key: 'default', name: 'Default', description: '' });
  t.deepEqual(doc.flags[0], {
    key: 'flag1',
    name: 'flag1',
    type: 'VARIANT_FLAG_TYPE',
    description: 'description',
    enabled: true,
    metadata: {},
    variants: [
      {
        key: 'variant1',
        name: 'variant1',
        description: 'variant description',
        default: true,
        attachment: { pi: 3.141, happy: true, name: 'Niels', answer: { everything: 42 }, list: [1, 0, 2], object: { currency: 'USD', value: 42.99 } },
      },
    ],
    rules: [{ segmentKeys: ['segment1'], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1, distributions: [{ variantKey: 'variant1', rollout: 100 }] }],
    rollouts: [],
  });
  t.deepEqual(doc.flags[1]?.rollouts, [
    { description: 'enabled for internal users', segment: { segmentKeys: ['internal_users'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true } },
    { description: 'enabled for 50%', threshold: { percentage: 50, value: true } },
  ]);
  t.deepEqual(doc.segments, [
    {
      key: 'segment1',
      name: 'segment1',
      description: 'description',
      matchType: 'ANY_MATCH_TYPE',
      constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'fizz', operator: 'neq', value: 'buzz', description: '' }],
    },
  ]);
  t.deepEqual(doc.origin, { index: 1, namespaceKey: 'default' });
});

test('versions 1.0, 1.1 and 1.3 of Flipt\'s fixtures decode; 1.0 has variant flags only', (t) => {
  t.is(decodeOne(fixtureValues('import_v1.json')[0]).flags[0]?.type, 'VARIANT_FLAG_TYPE');
  t.deepEqual(decodeOne(fixtureValues('import_v1_1.json')[0]).flags.map((f) => f.type), ['VARIANT_FLAG_TYPE', 'BOOLEAN_FLAG_TYPE']);
  t.deepEqual(decodeOne(fixtureValues('import_v1_3.json')[0]).flags.map((f) => f.metadata), [{ label: 'variant', area: true }, { label: 'bool', area: 12 }]);
  t.deepEqual(decodeOne(fixtureValues('import_flag_complex_metadata.json')[0]).flags[0]?.metadata, { args: { name: 'value' } });
});

test('a rule without rank (or rank 0) is ranked by its position; a rule with one segment in keys form is a single-segment OR rule', (t) => {
  t.is(decodeOne(fixtureValues('import_implicit_rule_rank.json')[0]).flags[0]?.rules[0]?.rank, 1);
  const multiple = decodeOne(fixtureValues('import_rule_multiple_segments.json')[0]).flags[0]?.rules[0];
  t.deepEqual([multiple?.segmentKeys, multiple?.segmentOperator], [['segment1'], 'OR_SEGMENT_OPERATOR']);
  const ranked = decodeOne(
    documentWith((d) => {
      d.flags[0].rules = [{ segment: 'beta', rank: 0 }, { segment: { keys: ['beta', 'beta'], operator: 'AND_SEGMENT_OPERATOR' }, rank: 7 }, { segment: 'beta' }];
    }),
  );
  t.deepEqual(ranked.flags[0]?.rules.map((r) => [r.rank, r.segmentKeys, r.segmentOperator]), [
    [1, ['beta'], 'OR_SEGMENT_OPERATOR'],
    [7, ['beta'], 'OR_SEGMENT_OPERATOR'],
    [3, ['beta'], 'OR_SEGMENT_OPERATOR'],
  ]);
});

test('a stream: each document its namespace, in order; documents of one namespace are all kept; empty documents are skipped', (t) => {
  const unique = decodeFliptDocuments(fixtureValues('import_yaml_stream_all_unique_namespaces.json'));
  t.deepEqual(unique.map((d) => [d.namespace.key, d.flags.length, d.segments.length]), [['foo', 2, 1], ['bar', 2, 1], ['default', 2, 1]]);
  t.deepEqual(unique.map((d) => d.namespace.name), ['foo', 'bar', 'Default']);
  const same = decodeFliptDocuments(fixtureValues('import_yaml_stream_default_namespace.json'));
  t.deepEqual(same.map((d) => d.flags.map((f) => f.key)), [['flag1', 'flag2'], ['flag3', 'flag4']]);
  const withEmpty = decodeFliptDocuments([null, { namespace: 'a' }, null, { namespace: 'b' }]);
  t.deepEqual(withEmpty.map((d) => [d.origin?.index, d.namespace.key]), [[2, 'a'], [4, 'b']]);
});

test('a namespace object takes its key, name and description; without a name the key is its name', (t) => {
  t.deepEqual(decodeOne({ namespace: { key: 'prod', name: 'Production', description: 'live' } }).namespace, { key: 'prod', name: 'Production', description: 'live' });
  t.deepEqual(decodeOne({ namespace: { key: 'prod' } }).namespace, { key: 'prod', name: 'prod', description: '' });
  t.deepEqual(decodeOne({ namespace: { name: 'Default' } }).namespace.key, 'default');
  invalid(t, { namespace: 'bad key' }, 'document 1: namespace: "bad key" must match ^[-_,A-Za-z0-9]+$');
  invalid(t, { namespace: ['x'] }, 'document 1: namespace: must be a namespace key or {key, name, description}');
});

test('versions: an unsupported one is refused; a document without one is read at the first document\'s', (t) => {
  assertInvalid(t, () => decodeFliptDocuments(fixtureValues('import_invalid_version.json')), 'document 1: version: unsupported version "5.0" (supported: 1.0, 1.1, 1.2, 1.3, 1.4)');
  t.is(decodeFliptDocuments([{ version: 1.2 }, { version: 'v1.3.0' }, { version: '1.0' }]).length, 3);
  invalid(t, { version: 'one' }, 'document 1: version: cannot parse version "one"');
  const typed = { namespace: 'b', flags: [{ key: 'f', name: 'F', type: 'BOOLEAN_FLAG_TYPE' }] };
  assertInvalid(t, () => decodeFliptDocuments([{ version: '1.0', namespace: 'a' }, typed]), 'document 2 (namespace "b"): flags[0].type: is supported in version >=1.1, found 1.0');
  t.is(decodeFliptDocuments([{ namespace: 'a' }, typed])[1]?.flags[0]?.type, 'BOOLEAN_FLAG_TYPE');
});

test('the version gates of Flipt\'s importer: flag type and rollouts 1.1, rollout segment keys 1.2, default variants and metadata 1.3', (t) => {
  assertInvalid(t, () => decodeFliptDocuments(fixtureValues('import_v1_flag_type_not_supported.json')), 'document 1 (namespace "default"): flags[0].type: is supported in version >=1.1, found 1.0');
  assertInvalid(t, () => decodeFliptDocuments(fixtureValues('import_v1_rollouts_not_supported.json')), 'document 1 (namespace "default"): flags[0].rollouts: is supported in version >=1.1, found 1.0');
  invalid(t, documentWith((d) => (d.flags[1].rollouts[0].segment = { keys: ['beta'] }), '1.1'), 'document 1 (namespace "production"): flags[1].rollouts[0].segment.keys: is supported in version >=1.2, found 1.1');
  invalid(t, documentWith((d) => (d.flags[0].variants[0].default = true), '1.2'), 'document 1 (namespace "production"): flags[0].variants[0].default: is supported in version >=1.3, found 1.2');
  invalid(t, documentWith((d) => (d.flags[0].metadata = { team: 'web' }), '1.2'), 'document 1 (namespace "production"): flags[0].metadata: is supported in version >=1.3, found 1.2');
  t.notThrows(() => decodeFliptDocuments([documentWith((d) => (d.flags[1].rollouts[0].segment = { keys: ['beta'] }), '1.2')]));
});

test('the last variant marked default is the default', (t) => {
  const doc = decodeOne(documentWith((d) => d.flags[0].variants.push({ key: 'a', default: true }, { key: 'b', default: true }, { key: 'c' })));
  t.deepEqual(doc.flags[0]?.variants.map((v) => v.default), [false, false, false, true, false]);
});

test('references: a distribution names a variant of its flag', (t) => {
  invalid(
    t,
    documentWith((d) => (d.flags[0].rules[0].distributions[1].variant = 'blu')),
    'document 1 (namespace "production"): flags[0].rules[0].distributions[1].variant: no variant "blu" in flag "color"',
  );
});

test('references: segments outside the document are left to the import unless a lookup is given', (t) => {
  const doc = documentWith((d) => (d.flags[0].rules[0].segment = { keys: ['beta', 'staff'], operator: 'AND_SEGMENT_OPERATOR' }));
  t.deepEqual(decodeOne(doc).flags[0]?.rules[0]?.segmentKeys, ['beta', 'staff']);
  assertInvalid(
    t,
    () => decodeFliptDocuments([doc], { segmentExists: () => false }),
    'document 1 (namespace "production"): flags[0].rules[0].segment.keys[1]: no segment "staff" in namespace "production"',
  );
  t.notThrows(() => decodeFliptDocuments([doc], { segmentExists: (ns, key) => ns === 'production' && key === 'staff' }));
  assertInvalid(
    t,
    () => decodeFliptDocuments([documentWith((d) => (d.flags[1].rollouts[0].segment.key = 'staff'))], { segmentExists: () => false, source: 'features.yml' }),
    'features.yml: document 1 (namespace "production"): flags[1].rollouts[0].segment.key: no segment "staff" in namespace "production"',
  );
});

test('rollouts: exactly one of segment and threshold; a segment by key or keys, not both', (t) => {
  const at = 'document 1 (namespace "production"): flags[1].rollouts[0]';
  invalid(t, documentWith((d) => (d.flags[1].rollouts[0].threshold = { percentage: 10 })), `${at}: cannot have both segment and threshold`);
  invalid(t, documentWith((d) => (d.flags[1].rollouts[0] = { description: 'x' })), `${at}: needs a segment or a threshold`);
  invalid(t, documentWith((d) => (d.flags[1].rollouts[0].segment.keys = ['beta'])), `${at}.segment: cannot have both key and keys`);
  invalid(t, documentWith((d) => (d.flags[1].rollouts[1].threshold.percentage = 101)), 'document 1 (namespace "production"): flags[1].rollouts[1].threshold.percentage: must be within 0 and 100');
  invalid(t, documentWith((d) => (d.flags[1].rollouts[0].segment = { keys: [] })), `${at}.segment.keys: must name at least one segment`);
});

test('rules belong to variant flags and rollouts to boolean flags', (t) => {
  invalid(t, documentWith((d) => (d.flags[1].rules = [{ segment: 'beta' }])), 'document 1 (namespace "production"): flags[1].rules: a BOOLEAN_FLAG_TYPE has rollouts, not rules');
  invalid(t, documentWith((d) => (d.flags[0].rollouts = [{ threshold: { percentage: 5 } }])), 'document 1 (namespace "production"): flags[0].rollouts: a VARIANT_FLAG_TYPE has rules, not rollouts');
});

test('keys: Flipt\'s pattern, present, unique in their list', (t) => {
  const at = 'document 1 (namespace "production")';
  invalid(t, documentWith((d) => (d.flags[0].key = 'has space')), `${at}: flags[0].key: "has space" must match ^[-_,A-Za-z0-9]+$`);
  invalid(t, documentWith((d) => (d.flags[1].key = 'color')), `${at}: flags[1].key: flag "color" appears twice (also at [0])`);
  invalid(t, documentWith((d) => d.segments.push({ key: 'beta', name: 'Again' })), `${at}: segments[1].key: segment "beta" appears twice (also at [0])`);
  invalid(t, documentWith((d) => (d.flags[0].variants[1].key = 'blue')), `${at}: flags[0].variants[1].key: variant "blue" appears twice (also at [0])`);
  invalid(t, documentWith((d) => delete d.flags[0].name), `${at}: flags[0].name: must not be empty`);
  invalid(t, documentWith((d) => (d.segments[0].key = '')), `${at}: segments[0].key: must not be empty`);
  invalid(t, documentWith((d) => (d.flags[0].variants[0] = { name: 'no key' })), `${at}: flags[0].variants[0].key: must not be empty`);
});

test('enums in Flipt\'s spellings; absent ones take Flipt\'s defaults', (t) => {
  const at = 'document 1 (namespace "production")';
  invalid(t, documentWith((d) => (d.flags[0].type = 'VARIANT')), `${at}: flags[0].type: "VARIANT" is not one of VARIANT_FLAG_TYPE, BOOLEAN_FLAG_TYPE`);
  invalid(t, documentWith((d) => (d.segments[0].match_type = 1)), `${at}: segments[0].match_type: "1" is not one of ALL_MATCH_TYPE, ANY_MATCH_TYPE`);
  invalid(t, documentWith((d) => (d.flags[0].rules[0].segment = { keys: ['beta'], operator: 'XOR' })), `${at}: flags[0].rules[0].segment.operator: "XOR" is not one of OR_SEGMENT_OPERATOR, AND_SEGMENT_OPERATOR`);
  const defaults = decodeOne(documentWith((d) => {
    delete d.flags[0].type;
    delete d.segments[0].match_type;
  }));
  t.is(defaults.flags[0]?.type, 'VARIANT_FLAG_TYPE');
  t.is(defaults.segments[0]?.matchType, 'ALL_MATCH_TYPE');
});

test('constraints: a known type, an operator of that type, a value where the operator compares one; values stored as the API stores them', (t) => {
  const at = 'document 1 (namespace "production"): segments[0].constraints[0]';
  const withConstraint = (c: Record<string, unknown>) => documentWith((d) => (d.segments[0].constraints = [c]));
  invalid(t, withConstraint({ type: 'UNKNOWN_COMPARISON_TYPE', property: 'p', operator: 'eq', value: 'x' }), `${at}.type: must be one of STRING_COMPARISON_TYPE, NUMBER_COMPARISON_TYPE, BOOLEAN_COMPARISON_TYPE, DATETIME_COMPARISON_TYPE, ENTITY_ID_COMPARISON_TYPE`);
  invalid(t, withConstraint({ type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'prefix', value: '1' }), `${at}.operator: "prefix" is not valid for type number (one of eq, neq, lt, lte, gt, gte, present, notpresent, isoneof, isnotoneof)`);
  invalid(t, withConstraint({ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq' }), `${at}.value: must not be empty`);
  invalid(t, withConstraint({ type: 'STRING_COMPARISON_TYPE', operator: 'eq', value: 'x' }), `${at}.property: must not be empty`);
  invalid(t, withConstraint({ type: 'DATETIME_COMPARISON_TYPE', property: 'at', operator: 'gt', value: 'soon' }), `${at}.value: parsing datetime from "soon"`);
  invalid(t, withConstraint({ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'isoneof', value: '[1]' }), `${at}.value: invalid value provided for property "p" of type string`);
  const normalised = decodeOne(
    documentWith((d) => {
      d.segments[0].constraints = [
        { type: 'DATETIME_COMPARISON_TYPE', property: 'at', operator: 'GT', value: '2025-01-01T02:00:00+02:00' },
        { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true', value: 'ignored' },
        { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: 21, description: 'adults' },
      ];
    }),
  ).segments[0]?.constraints;
  t.deepEqual(normalised, [
    { type: 'DATETIME_COMPARISON_TYPE', property: 'at', operator: 'gt', value: '2025-01-01T00:00:00Z', description: '' },
    { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true', value: '', description: '' },
    { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '21', description: 'adults' },
  ]);
});

test('free-form values: attachments and metadata must be JSON; wrong types are named', (t) => {
  const at = 'document 1 (namespace "production")';
  invalid(t, documentWith((d) => (d.flags[0].variants[0].attachment = { n: Number.POSITIVE_INFINITY })), `${at}: flags[0].variants[0].attachment: must be a JSON value`);
  invalid(t, documentWith((d) => (d.flags[0].variants[0].attachment = 'x'.repeat(1_024_001))), `${at}: flags[0].variants[0].attachment: must be less than 1000 KB`);
  invalid(t, documentWith((d) => (d.flags[0].metadata = ['x'])), `${at}: flags[0].metadata: must be a mapping`);
  invalid(t, documentWith((d) => (d.flags[0].enabled = 'yes')), `${at}: flags[0].enabled: must be true or false`);
  invalid(t, documentWith((d) => (d.flags[0].rules[0].distributions[0].rollout = '50')), `${at}: flags[0].rules[0].distributions[0].rollout: must be a number`);
  invalid(t, documentWith((d) => (d.flags = { color: {} })), `${at}: flags: must be a list`);
  invalid(t, documentWith((d) => (d.flags[0].variants[0] = 'blue')), `${at}: flags[0].variants[0]: must be a mapping`);
  invalid(t, 'flags: []', 'document 1: (document): must be a mapping with version, namespace, flags and segments');
});
