/** The subject of each kind of write: which key it reports, under which parent, and what it touches. */
import type { Subject } from './change-draft.js';
import { TOUCHES_NOTHING, touchesFlag, touchesSegment, type Touched } from './snapshot-effect.js';

export const namespaceSubject = (key: string, touched: Touched): Subject => ({ resource: 'namespace', key, touched });

export const flagSubject = (key: string): Subject => ({ resource: 'flag', key, touched: touchesFlag(key) });

/** A part of a flag, reported by id under the flag's key; it changes that flag only. */
export const flagPartSubject = (resource: 'variant' | 'rule' | 'distribution' | 'rollout', flagKey: string, id: string): Subject => ({
  resource,
  key: id,
  parentKey: flagKey,
  touched: touchesFlag(flagKey),
});

/** The rank order of a flag's rules (rollouts), reported under the flag's key. */
export const rankOrderSubject = (resource: 'rule' | 'rollout', flagKey: string): Subject => ({
  resource,
  key: flagKey,
  parentKey: flagKey,
  touched: touchesFlag(flagKey),
});

/** A segment no flag can be using (a new one, or one deleted, which needs it unused). */
export const unusedSegmentSubject = (key: string): Subject => ({ resource: 'segment', key, touched: TOUCHES_NOTHING });

/** A segment edited in place: every flag using it changes. */
export const segmentSubject = (key: string): Subject => ({ resource: 'segment', key, touched: touchesSegment(key) });

export const constraintSubject = (segmentKey: string, id: string): Subject => ({
  resource: 'constraint',
  key: id,
  parentKey: segmentKey,
  touched: touchesSegment(segmentKey),
});
