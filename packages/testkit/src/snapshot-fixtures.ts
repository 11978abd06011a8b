/**
 * Hand-written snapshot documents, compiled by the real engine and held by a real in-process source,
 * for the tests of every surface that evaluates them (HTTP and gRPC).
 */
import type { HashMode, NamespaceSnapshot, SnapshotDocument, SnapshotFlag, SnapshotSegment } from '@ensign/engine';
import { InProcessSnapshotSource } from '@ensign/evaluator';
import { SnapshotVersion, snapshotChecksum } from '@ensign/snapshots';

const AT = '2025-01-01T00:00:00Z';

/** A segment with string-equality constraints. */
export const segment = (key: string, constraints: Array<[property: string, operator: string, value: string]> = [], matchType: SnapshotSegment['matchType'] = 'ALL_SEGMENT_MATCH_TYPE'): SnapshotSegment => ({
  key,
  name: '',
  description: '',
  matchType,
  constraints: constraints.map(([property, operator, value], i) => ({
    id: `${key}-c${i}`,
    type: 'STRING_CONSTRAINT_COMPARISON_TYPE',
    property,
    operator,
    value,
  })),
});

/** A flag with defaults for everything not given. */
export const flag = (key: string, fields: Partial<SnapshotFlag> = {}): SnapshotFlag => ({
  key,
  name: key,
  description: '',
  enabled: true,
  type: 'VARIANT_FLAG_TYPE',
  createdAt: AT,
  updatedAt: AT,
  rules: [],
  rollouts: [],
  ...fields,
});

const distribution = (variantKey: string, rollout: number, variantAttachment = '') => ({
  id: '',
  ruleId: '',
  variantId: `v-${variantKey}`,
  variantKey,
  variantAttachment,
  rollout,
});

/**
 * The `default` namespace of most tests:
 * - `color`: plan=pro → blue (100%), default variant red;
 * - `foo`: everyone → 50% boz / 50% booz (Flipt's crc32 vectors: entity 1 → boz, 2 → booz);
 * - `off`: disabled, default variant red; `plain`: enabled, no rules, no default;
 * - `new-ui` (boolean, disabled): internal staff → true, then 50% → true;
 * - `test-flag` (boolean): 70% → true; `five` (boolean, enabled): 5% → true;
 * - `ids` (variant): entity id `vip` → gold (an entity-id constraint).
 */
export function defaultDocument(): SnapshotDocument {
  return {
    namespace: { key: 'default' },
    flags: [
      flag('color', {
        rules: [
          {
            id: 'r-color',
            rank: 1,
            segmentOperator: 'OR_SEGMENT_OPERATOR',
            segments: [segment('pro-users', [['plan', 'eq', 'pro']])],
            distributions: [distribution('blue', 100, '{"hex":"#00f"}')],
          },
        ],
        defaultVariant: { id: 'v-red', key: 'red', attachment: '{"hex":"#f00"}' },
      }),
      flag('foo', {
        rules: [
          {
            id: 'r-foo',
            rank: 1,
            segmentOperator: 'OR_SEGMENT_OPERATOR',
            segments: [segment('everyone')],
            distributions: [distribution('boz', 50), distribution('booz', 50)],
          },
        ],
      }),
      flag('off', { enabled: false, defaultVariant: { id: 'v-red', key: 'red', attachment: '' } }),
      flag('plain'),
      flag('new-ui', {
        type: 'BOOLEAN_FLAG_TYPE',
        enabled: false,
        rollouts: [
          {
            type: 'SEGMENT_ROLLOUT_TYPE',
            rank: 1,
            segment: { value: true, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [segment('internal', [['email', 'suffix', '@corp.example']])] },
          },
          { type: 'THRESHOLD_ROLLOUT_TYPE', rank: 2, threshold: { percentage: 50, value: true } },
        ],
      }),
      flag('test-flag', {
        type: 'BOOLEAN_FLAG_TYPE',
        rollouts: [{ type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 70, value: true } }],
      }),
      flag('five', {
        type: 'BOOLEAN_FLAG_TYPE',
        rollouts: [{ type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 5, value: true } }],
      }),
      flag('ids', {
        rules: [
          {
            id: 'r-ids',
            rank: 1,
            segmentOperator: 'OR_SEGMENT_OPERATOR',
            segments: [
              {
                key: 'vips',
                name: '',
                description: '',
                matchType: 'ALL_SEGMENT_MATCH_TYPE',
                constraints: [{ id: 'c-vip', type: 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE', property: 'entityId', operator: 'eq', value: 'vip' }],
              },
            ],
            distributions: [distribution('gold', 100)],
          },
        ],
      }),
    ],
  };
}

/** A second namespace whose `color` answers differently, to tell namespaces apart. */
export function otherDocument(): SnapshotDocument {
  return {
    namespace: { key: 'other' },
    flags: [
      flag('color', {
        rules: [
          {
            id: 'r-other',
            rank: 1,
            segmentOperator: 'OR_SEGMENT_OPERATOR',
            segments: [segment('all')],
            distributions: [distribution('green', 100)],
          },
        ],
      }),
    ],
  };
}

/** The snapshot of `document` at `revision`, with its checksum as the control plane computes it. */
export function snapshotOf(document: SnapshotDocument, revision = 1): NamespaceSnapshot {
  return { namespaceKey: document.namespace.key, revision, checksum: snapshotChecksum(document), document };
}

/** Compiles and holds `document` in `source` at `revision`. */
export function hold(source: InProcessSnapshotSource, document: SnapshotDocument, revision = 1, hash: HashMode = 'crc32'): NamespaceSnapshot {
  const version = SnapshotVersion.hydrate(snapshotOf(document, revision), { hash });
  source.offer(version);
  return version.snapshot;
}

/** A ready source holding the `default` and `other` namespaces. */
export function readySource(hash: HashMode = 'crc32'): InProcessSnapshotSource {
  const source = new InProcessSnapshotSource();
  hold(source, defaultDocument(), 1, hash);
  hold(source, otherDocument(), 1, hash);
  source.markReady();
  return source;
}
