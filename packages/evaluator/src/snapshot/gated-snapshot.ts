/**
 * The snapshot document as a client of some version is shown it, serialised once per
 * (snapshot, gate) and kept until the snapshot is replaced, so serving it costs no serialisation.
 */
import { createHash } from 'node:crypto';
import type { NamespaceSnapshot, SnapshotDocument, SnapshotFlag, SnapshotRollout, SnapshotRule, SnapshotSegment } from '@ensign/engine';
import type { SnapshotGate } from './server-version.js';

/** One gated rendering of a snapshot: its entity tag, document and JSON text. */
export interface GatedSnapshot {
  /** Derived from the snapshot checksum and the gate: any change of the namespace changes it. */
  etag: string;
  document: SnapshotDocument;
  body: string;
}

const rendered = new WeakMap<NamespaceSnapshot, Map<SnapshotGate, GatedSnapshot>>();

/** The gated document, entity tag and body of `snapshot` for `gate`, computed on first use. */
export function gatedSnapshot(snapshot: NamespaceSnapshot, gate: SnapshotGate): GatedSnapshot {
  let perGate = rendered.get(snapshot);
  if (perGate === undefined) {
    perGate = new Map();
    rendered.set(snapshot, perGate);
  }
  let entry = perGate.get(gate);
  if (entry === undefined) {
    const document = gateDocument(snapshot.document, gate);
    entry = {
      etag: createHash('sha1').update(`${snapshot.checksum}:${gate}`).digest('hex'),
      document,
      body: JSON.stringify(document),
    };
    perGate.set(gate, entry);
  }
  return entry;
}

/** COMPAT(flipt): clients older than 1.38.0 do not know the ENTITY_ID comparison type. */
function hideEntityId(segment: SnapshotSegment): SnapshotSegment {
  if (!segment.constraints.some((c) => c.type === 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE')) return segment;
  return {
    ...segment,
    constraints: segment.constraints.map((c) =>
      c.type === 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE' ? { ...c, type: 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE' } : c,
    ),
  };
}

const legacyRule = (rule: SnapshotRule): SnapshotRule => ({ ...rule, segments: rule.segments.map(hideEntityId) });

const legacyRollout = (rollout: SnapshotRollout): SnapshotRollout =>
  rollout.segment === undefined ? rollout : { ...rollout, segment: { ...rollout.segment, segments: rollout.segment.segments.map(hideEntityId) } };

function gateFlag(flag: SnapshotFlag, gate: SnapshotGate): SnapshotFlag {
  // COMPAT(flipt): clients older than 1.47.0 do not know default variants.
  const { defaultVariant: _hidden, ...shown } = flag;
  if (gate !== 'legacy') return shown;
  return { ...shown, rules: flag.rules.map(legacyRule), rollouts: flag.rollouts.map(legacyRollout) };
}

/** The document without what a client behind `gate` does not understand; the held one is never changed. */
export function gateDocument(document: SnapshotDocument, gate: SnapshotGate): SnapshotDocument {
  if (gate === 'current') return document;
  return { namespace: document.namespace, flags: document.flags.map((flag) => gateFlag(flag, gate)) };
}
