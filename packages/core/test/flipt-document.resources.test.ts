import test from 'ava';
import type { Flag, Rollout, Rule, Segment, Variant } from '../src/index.js';
import { documentOfResources, encodeFliptDocument, parseJsonDocuments } from '../src/index.js';
import { assertInvalid } from './assert-invalid.js';
import { fixtureText } from './flipt-fixtures.js';

const AT = '2030-01-01T00:00:00Z';
const NS = 'prod';

const variant = (id: string, key: string, attachment: string): Variant => ({
  id, namespaceKey: NS, flagKey: 'color', key, name: key.toUpperCase(), description: '', attachment, createdAt: AT, updatedAt: AT,
});

const blue = variant('v1', 'blue', '{"hex":"#00f","rgb":[0,0,255]}');
const red = variant('v2', 'red', '');

const flags: Flag[] = [
  { namespaceKey: NS, key: 'color', name: 'Color', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', createdAt: AT, updatedAt: AT, variants: [blue, red], defaultVariant: red, metadata: { team: 'web' } },
  { namespaceKey: NS, key: 'dark', name: 'Dark', description: 'mode', enabled: false, type: 'BOOLEAN_FLAG_TYPE', createdAt: AT, updatedAt: AT, variants: [] },
];

const rule = (id: string, rank: number, segmentKey: string, segmentKeys: string[]): Rule => ({
  id, namespaceKey: NS, flagKey: 'color', segmentKey, segmentKeys, segmentOperator: segmentKeys.length > 0 ? 'AND_SEGMENT_OPERATOR' : 'OR_SEGMENT_OPERATOR', rank, createdAt: AT, updatedAt: AT,
  distributions: rank === 1 ? [{ id: 'd1', ruleId: id, variantId: 'v1', rollout: 30 }, { id: 'd2', ruleId: id, variantId: 'v2', rollout: 70 }].map((d) => ({ ...d, createdAt: AT, updatedAt: AT })) : [],
});

const rollouts: Rollout[] = [
  { id: 'r2', namespaceKey: NS, flagKey: 'dark', type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, description: 'half', createdAt: AT, updatedAt: AT, threshold: { percentage: 50, value: true } },
  { id: 'r1', namespaceKey: NS, flagKey: 'dark', type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, description: '', createdAt: AT, updatedAt: AT, segment: { segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true } },
];

const segments: Segment[] = [
  {
    namespaceKey: NS, key: 'beta', name: 'Beta', description: '', matchType: 'ANY_MATCH_TYPE', createdAt: AT, updatedAt: AT,
    constraints: [{ id: 'c1', namespaceKey: NS, segmentKey: 'beta', type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: 'paying', createdAt: AT, updatedAt: AT }],
  },
  { namespaceKey: NS, key: 'staff', name: 'Staff', description: '', matchType: 'ALL_MATCH_TYPE', createdAt: AT, updatedAt: AT, constraints: [] },
];

test('a namespace\'s resources as an export: variants by id to keys, rules and rollouts per flag by rank, attachments as values', (t) => {
  const doc = documentOfResources({
    namespace: { key: NS, name: 'Production', description: 'live' },
    flags,
    rules: [rule('rule-2', 2, '', ['beta', 'staff']), rule('rule-1', 1, 'beta', [])],
    rollouts,
    segments,
  });
  t.deepEqual(encodeFliptDocument(doc), {
    version: '1.4',
    namespace: { key: NS, name: 'Production', description: 'live' },
    flags: [
      {
        key: 'color',
        name: 'Color',
        type: 'VARIANT_FLAG_TYPE',
        enabled: true,
        metadata: { team: 'web' },
        variants: [{ key: 'blue', name: 'BLUE', attachment: { hex: '#00f', rgb: [0, 0, 255] } }, { default: true, key: 'red', name: 'RED' }],
        rules: [
          { segment: 'beta', distributions: [{ variant: 'blue', rollout: 30 }, { variant: 'red', rollout: 70 }] },
          { segment: { keys: ['beta', 'staff'], operator: 'AND_SEGMENT_OPERATOR' } },
        ],
      },
      {
        key: 'dark',
        name: 'Dark',
        type: 'BOOLEAN_FLAG_TYPE',
        description: 'mode',
        enabled: false,
        rollouts: [{ segment: { key: 'beta', value: true } }, { description: 'half', threshold: { percentage: 50, value: true } }],
      },
    ],
    segments: [
      { key: 'beta', name: 'Beta', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: 'paying' }], match_type: 'ANY_MATCH_TYPE' },
      { key: 'staff', name: 'Staff', match_type: 'ALL_MATCH_TYPE' },
    ],
  });
});

test('a JSON stream: values one after another, after an optional "# exported by" line', (t) => {
  t.deepEqual(parseJsonDocuments('{"a":1}\n{"b":"}{"}\n  [1]"x y" 2 null\n'), [{ a: 1 }, { b: '}{' }, [1], 'x y', 2, null]);
  t.deepEqual(parseJsonDocuments('# exported by Flipt (v1.51.1) on 2024-11-21T16:59:50Z\n\n{"version":"1.4"}'), [{ version: '1.4' }]);
  t.deepEqual(parseJsonDocuments(''), []);
  t.is((parseJsonDocuments(fixtureText('import_flag_complex_metadata.json'))[0] as { version: string }).version, '1.4');
  assertInvalid(t, () => parseJsonDocuments('{"a":1}\n{"b":\n'), 'document 2: not valid JSON: Unexpected end of JSON input');
});
