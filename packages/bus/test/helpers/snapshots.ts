import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { NamespaceSnapshot, SnapshotDocument, SnapshotFlag } from '@ensign/engine';

/** A snapshot of `document` at `revision`, with the checksum the control plane computes. */
export function snapshotOf(document: SnapshotDocument, revision: number): NamespaceSnapshot {
  const checksum = createHash('sha256').update(JSON.stringify(document)).digest('hex');
  return { namespaceKey: document.namespace.key, revision, checksum, document };
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
