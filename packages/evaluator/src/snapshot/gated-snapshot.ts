/**
 * The snapshot document as a client of some version is shown it: folded into Flipt's plain form at
 * the current time (schedules, windows, ramps and prerequisites are Ensign's; see
 * `effectiveSnapshotFlag`), gated, and serialised once per (snapshot, gate, phase), where the phase
 * counts the document's boundaries passed. It is kept until the snapshot is replaced or a boundary
 * passes, so serving it costs no serialisation. The `ensign` gate is the document as held, never
 * folded, with the snapshot's revision and the bucketing hash (see snapshot-format.ts).
 */
import { createHash } from 'node:crypto';
import {
  boundariesPassed,
  effectiveSnapshotDocument,
  type EvaluationEnv,
  type HashMode,
  type NamespaceSnapshot,
  type SnapshotDocument,
  type SnapshotFlag,
  type SnapshotRollout,
  type SnapshotRule,
  type SnapshotSegment,
} from '@ensign/engine';
import type { SnapshotGate } from './server-version.js';
import { boundariesOf } from './snapshot-phase.js';

/** One gated rendering of a snapshot: its entity tag, document and JSON text. */
export interface GatedSnapshot {
  /** Derived from the snapshot checksum, the gate and the phase: any change of the namespace or of its flags' state changes it. */
  etag: string;
  document: SnapshotDocument;
  body: string;
  /** The document's boundaries passed when it was rendered. */
  phase: number;
}

/** The latest rendering per gate: time only moves forward, so an earlier phase is not asked for again. */
const rendered = new WeakMap<NamespaceSnapshot, Map<SnapshotGate, GatedSnapshot>>();

/** What Ensign's own clients are shown: the held document with its revision and, when known, the hash it is bucketed with. */
export interface EnsignSnapshotDocument extends SnapshotDocument {
  revision: number;
  hash?: HashMode;
}

const unfolded = new WeakMap<NamespaceSnapshot, GatedSnapshot>();

/** The `ensign` rendering: one per snapshot, whatever the time, since its clients fold it themselves. */
function ensignSnapshot(snapshot: NamespaceSnapshot, hash: HashMode | undefined): GatedSnapshot {
  let entry = unfolded.get(snapshot);
  if (entry === undefined) {
    const document: EnsignSnapshotDocument = { ...snapshot.document, revision: snapshot.revision, ...(hash === undefined ? {} : { hash }) };
    // The hash is in the tag: a client that polls a server restarted with another hash gets the new one.
    const etag = createHash('sha1').update(`${snapshot.checksum}:ensign:${hash ?? ''}`).digest('hex');
    entry = { etag, document, body: JSON.stringify(document), phase: 0 };
    unfolded.set(snapshot, entry);
  }
  return entry;
}

/**
 * The gated document, entity tag and body of `snapshot` for `gate` at the clock's time (read only
 * when the document has boundaries), computed on first use in each phase. `hash` is announced to
 * the `ensign` gate only.
 */
export function gatedSnapshot(snapshot: NamespaceSnapshot, gate: SnapshotGate, clock: EvaluationEnv, hash?: HashMode): GatedSnapshot {
  if (gate === 'ensign') return ensignSnapshot(snapshot, hash);
  const boundaries = boundariesOf(snapshot);
  const now = boundaries.length === 0 ? 0 : clock.now();
  const phase = boundaries.length === 0 ? 0 : boundariesPassed(boundaries, now);
  let perGate = rendered.get(snapshot);
  if (perGate === undefined) {
    perGate = new Map();
    rendered.set(snapshot, perGate);
  }
  let entry = perGate.get(gate);
  if (entry === undefined || entry.phase !== phase) {
    const document = gateDocument(effectiveSnapshotDocument(snapshot.document, now), gate);
    // A document that never changes with time keeps the tag it has always had.
    const tagged = phase === 0 ? `${snapshot.checksum}:${gate}` : `${snapshot.checksum}:${gate}:${phase}`;
    entry = { etag: createHash('sha1').update(tagged).digest('hex'), document, body: JSON.stringify(document), phase };
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
  if (gate === 'current' || gate === 'ensign') return document;
  return { namespace: document.namespace, flags: document.flags.map((flag) => gateFlag(flag, gate)) };
}
