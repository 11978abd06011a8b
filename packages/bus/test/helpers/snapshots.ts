import { randomBytes, randomUUID } from 'node:crypto';
import type { NamespaceSnapshot, SnapshotDocument, SnapshotFlag } from '@ensign/engine';
import type { SnapshotDelta } from '@ensign/snapshots';

/** A snapshot of `document` at `revision`; its checksum is opaque to the bus, so any value does. */
export function snapshotOf(document: SnapshotDocument, revision: number): NamespaceSnapshot {
  return { namespaceKey: document.namespace.key, revision, checksum: randomBytes(32).toString('hex'), document };
}

function flag(key: string, noise: number): SnapshotFlag {
  const segmentKey = `segment-${randomBytes(4).toString('hex')}`;
  return {
    key,
    name: key,
    // Random text keeps the document from compressing to nothing, as real descriptions would.
    description: randomBytes(noise).toString('hex'),
    enabled: true,
    type: 'VARIANT_FLAG_TYPE',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    rules: [
      {
        id: randomUUID(),
        rank: 1,
        segmentOperator: 'OR_SEGMENT_OPERATOR',
        segments: [
          {
            key: segmentKey,
            name: '',
            description: '',
            matchType: 'ALL_SEGMENT_MATCH_TYPE',
            constraints: [
              { id: randomUUID(), type: 'STRING_CONSTRAINT_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: randomBytes(8).toString('hex') },
            ],
          },
        ],
        distributions: [
          { id: '', ruleId: '', variantId: randomUUID(), variantKey: 'on', variantAttachment: '', rollout: 100 },
        ],
      },
    ],
    rollouts: [],
    defaultVariant: { id: randomUUID(), key: 'off', attachment: '' },
  };
}

/** A namespace document with `flags` flags, each carrying `noise` random bytes of description. */
export function documentOf(namespaceKey: string, flags = 3, noise = 16): SnapshotDocument {
  return {
    namespace: { key: namespaceKey },
    flags: Array.from({ length: flags }, (_, i) => flag(`flag-${i}`, noise)),
  };
}

/** A delta of `namespaceKey` from `baseRevision` to `revision` that upserts `flags` fresh flags and removes `removed`. */
export function deltaOf(namespaceKey: string, baseRevision: number, revision: number, flags = 2, removed: string[] = []): SnapshotDelta {
  return {
    namespaceKey,
    baseRevision,
    revision,
    checksum: randomBytes(32).toString('hex'),
    flags: Array.from({ length: flags }, (_, i) => flag(`changed-${revision}-${i}`, 16)),
    removed,
  };
}
