import test from 'ava';
import type { Constraint, Segment, Variant } from '@ensign/core';
import type { SnapshotDocument } from '@ensign/engine';
import type { NamespaceState } from '@ensign/store';
import { snapshotChecksum } from '@ensign/snapshots';
import { buildSnapshotFlags, buildVersion } from '../src/index.js';

const buildNamespaceSnapshot = (state: NamespaceState) => buildVersion(state, { hash: 'murmur3' }).snapshot;
const buildSnapshotDocument = (state: NamespaceState) => buildNamespaceSnapshot(state).document;

const AT = '2030-01-01T00:00:00.000Z';
const LATER = '2030-01-02T00:00:00.000Z';
const NS = 'prod';

const variant = (id: string, flagKey: string, key: string, attachment: string): Variant => ({
  id, namespaceKey: NS, flagKey, key, name: key.toUpperCase(), description: 'v', attachment, createdAt: AT, updatedAt: AT,
});

const constraint = (id: string, segmentKey: string, type: Constraint['type'], property: string, operator: string, value: string): Constraint => ({
  id, namespaceKey: NS, segmentKey, type, property, operator, value, description: 'ignored', createdAt: AT, updatedAt: AT,
});

const segment = (key: string, matchType: Segment['matchType'], constraints: Constraint[]): Segment => ({
  namespaceKey: NS, key, name: `Segment ${key}`, description: 'dropped', matchType, constraints, createdAt: AT, updatedAt: AT,
});

const red = variant('v-red', 'color', 'red', '{"hex":"#f00"}');
const blue = variant('v-blue', 'color', 'blue', '');

/** A namespace that uses every feature the snapshot carries, with rows deliberately out of rank order. */
const STATE: NamespaceState = {
  namespace: { key: NS, name: 'Production', description: 'd', protected: false, createdAt: AT, updatedAt: AT },
  revision: 42,
  flags: [
    {
      namespaceKey: NS, key: 'color', name: 'Color', description: 'the colour', enabled: true, type: 'VARIANT_FLAG_TYPE',
      createdAt: AT, updatedAt: LATER, variants: [red, blue], defaultVariant: red, metadata: { team: 'web' },
    },
    {
      namespaceKey: NS, key: 'new-ui', name: 'New UI', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE',
      createdAt: LATER, updatedAt: LATER, variants: [],
    },
    {
      namespaceKey: NS, key: 'plain', name: 'Plain', description: '', enabled: false, type: 'VARIANT_FLAG_TYPE',
      createdAt: LATER, updatedAt: LATER, variants: [],
    },
  ],
  rules: [
    {
      id: 'rule-multi', namespaceKey: NS, flagKey: 'color', segmentKey: '', segmentKeys: ['internal', 'beta'], segmentKeysInOrder: ['internal', 'beta'],
      segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2, createdAt: AT, updatedAt: AT,
      distributions: [
        { id: 'd1', ruleId: 'rule-multi', variantId: 'v-blue', rollout: 60, createdAt: AT, updatedAt: AT },
        { id: 'd2', ruleId: 'rule-multi', variantId: 'v-red', rollout: 40, createdAt: LATER, updatedAt: LATER },
      ],
    },
    {
      id: 'rule-single', namespaceKey: NS, flagKey: 'color', segmentKey: 'beta', segmentKeys: [], segmentKeysInOrder: ['beta'],
      segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1, createdAt: AT, updatedAt: AT, distributions: [],
    },
    {
      id: 'rule-without-segments', namespaceKey: NS, flagKey: 'color', segmentKey: '', segmentKeys: [], segmentKeysInOrder: [],
      segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 3, createdAt: AT, updatedAt: AT, distributions: [],
    },
  ],
  rollouts: [
    {
      id: 'ro-threshold', namespaceKey: NS, flagKey: 'new-ui', type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, description: 'x',
      createdAt: AT, updatedAt: AT, threshold: { percentage: 12.5, value: true }, segmentKeysInOrder: [],
    },
    {
      id: 'ro-segment', namespaceKey: NS, flagKey: 'new-ui', type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, description: '',
      createdAt: AT, updatedAt: AT, segmentKeysInOrder: ['beta', 'internal'],
      segment: { segmentKey: '', segmentKeys: ['beta', 'internal'], segmentOperator: 'OR_SEGMENT_OPERATOR', value: false },
    },
  ],
  segments: [
    segment('beta', 'ALL_MATCH_TYPE', [
      constraint('c1', 'beta', 'STRING_COMPARISON_TYPE', 'plan', 'eq', 'pro'),
      constraint('c2', 'beta', 'NUMBER_COMPARISON_TYPE', 'age', 'gte', '21'),
      constraint('c3', 'beta', 'BOOLEAN_COMPARISON_TYPE', 'admin', 'true', ''),
      constraint('c4', 'beta', 'DATETIME_COMPARISON_TYPE', 'since', 'lt', '2030-01-01T00:00:00Z'),
    ]),
    segment('internal', 'ANY_MATCH_TYPE', [
      constraint('c5', 'internal', 'ENTITY_ID_COMPARISON_TYPE', 'entityId', 'isoneof', '["a","b"]'),
      constraint('c6', 'internal', 'UNKNOWN_COMPARISON_TYPE', 'legacy', 'eq', 'x'),
    ]),
    segment('unused', 'ALL_MATCH_TYPE', []),
  ],
  schedules: [],
};

const BETA = {
  key: 'beta', name: '', description: '', matchType: 'ALL_SEGMENT_MATCH_TYPE',
  constraints: [
    { id: 'c1', type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' },
    { id: 'c2', type: 'NUMBER_CONSTRAINT_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '21' },
    { id: 'c3', type: 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE', property: 'admin', operator: 'true', value: '' },
    { id: 'c4', type: 'DATETIME_CONSTRAINT_COMPARISON_TYPE', property: 'since', operator: 'lt', value: '2030-01-01T00:00:00Z' },
  ],
};
const INTERNAL = {
  key: 'internal', name: '', description: '', matchType: 'ANY_SEGMENT_MATCH_TYPE',
  constraints: [
    { id: 'c5', type: 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE', property: 'entityId', operator: 'isoneof', value: '["a","b"]' },
    { id: 'c6', type: 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE', property: 'legacy', operator: 'eq', value: 'x' },
  ],
};

/** Reference §2.11, field for field and in its key order. */
const EXPECTED = {
  namespace: { key: 'prod' },
  flags: [
    {
      key: 'color', name: 'Color', description: 'the colour', enabled: true, type: 'VARIANT_FLAG_TYPE', createdAt: AT, updatedAt: LATER,
      rules: [
        { id: 'rule-single', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [BETA], distributions: [] },
        {
          id: 'rule-multi', rank: 2, segmentOperator: 'AND_SEGMENT_OPERATOR', segments: [INTERNAL, BETA],
          distributions: [
            { id: '', ruleId: '', variantId: 'v-blue', variantKey: 'blue', variantAttachment: '', rollout: 60 },
            { id: '', ruleId: '', variantId: 'v-red', variantKey: 'red', variantAttachment: '{"hex":"#f00"}', rollout: 40 },
          ],
        },
      ],
      rollouts: [],
      defaultVariant: { id: 'v-red', key: 'red', attachment: '{"hex":"#f00"}' },
    },
    {
      key: 'new-ui', name: 'New UI', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE', createdAt: LATER, updatedAt: LATER,
      rules: [],
      rollouts: [
        { type: 'SEGMENT_ROLLOUT_TYPE', rank: 1, segment: { value: false, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [BETA, INTERNAL] } },
        { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: 12.5, value: true } },
      ],
    },
    {
      key: 'plain', name: 'Plain', description: '', enabled: false, type: 'VARIANT_FLAG_TYPE', createdAt: LATER, updatedAt: LATER,
      rules: [], rollouts: [],
    },
  ],
};

test('the document is the reference snapshot shape, byte for byte', (t) => {
  const document = buildSnapshotDocument(STATE);
  t.deepEqual(document, EXPECTED as unknown);
  // Same keys in the same order: the checksum and every client-side SDK see exactly this text.
  t.is(JSON.stringify(document), JSON.stringify(EXPECTED));
});

test('each multi-segment rule appears once; rules without segments and unused segments are left out', (t) => {
  const [color] = buildSnapshotDocument(STATE).flags;
  t.deepEqual(color?.rules.map((r) => r.id), ['rule-single', 'rule-multi']);
  t.false(JSON.stringify(buildSnapshotDocument(STATE)).includes('"unused"'));
});

test('the snapshot carries the revision, the namespace and the checksum of the document', (t) => {
  const snapshot = buildNamespaceSnapshot(STATE);
  t.is(snapshot.namespaceKey, 'prod');
  t.is(snapshot.revision, 42);
  t.is(snapshot.checksum, snapshotChecksum(EXPECTED as SnapshotDocument));
  // Same state, same checksum; any change in what is published, a new one.
  t.is(buildNamespaceSnapshot(structuredClone(STATE)).checksum, snapshot.checksum);
  const renamed = structuredClone(STATE);
  (renamed.flags[2] as { name: string }).name = 'Plain 2';
  t.not(buildNamespaceSnapshot(renamed).checksum, snapshot.checksum);
});

test('a namespace without flags is an empty document', (t) => {
  const empty: NamespaceState = { ...STATE, flags: [], rules: [], rollouts: [], segments: [] };
  t.is(JSON.stringify(buildSnapshotDocument(empty)), '{"namespace":{"key":"prod"},"flags":[]}');
});

test('a rule naming a segment or variant the state lacks is refused rather than published half-built', (t) => {
  const noSegment = { ...STATE, segments: STATE.segments.filter((s) => s.key !== 'internal') };
  t.throws(() => buildSnapshotFlags(noSegment), { message: 'rule "rule-multi" refers to segment "internal", which the namespace does not hold' });
  const noVariant = structuredClone(STATE);
  (noVariant.flags[0] as { variants: Variant[] }).variants = [red];
  t.throws(() => buildSnapshotFlags(noVariant), { message: 'distribution "d1" refers to variant "v-blue", which flag "color" does not hold' });
});
