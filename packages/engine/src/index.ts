/**
 * @ensign/engine: compile a namespace snapshot once, then evaluate variant and boolean flags against
 * it. Pure: no I/O, no clock of its own (the caller's is read only for timed flags), no randomness;
 * evaluation never throws.
 */
export { compileSnapshot, emptySnapshot, patchSnapshot } from './compile-snapshot.js';
export { SnapshotCompilation } from './compile-in-steps.js';
export { LayeredMap } from './layered-map.js';
export type { CompiledFlag, CompiledSnapshot } from './compiled-snapshot.js';
export { evaluateVariant } from './evaluate-variant.js';
export { evaluateBoolean } from './evaluate-boolean.js';
export { evaluateBatch } from './evaluate-batch.js';
export { MAX_PREREQUISITE_DEPTH } from './evaluation-call.js';
export { flagEnabled } from './flag-plan.js';
export { effectiveSnapshotDocument, effectiveSnapshotFlag } from './effective-snapshot-flag.js';
export { boundariesPassed, documentBoundaries, flagBoundaries, nextBoundary } from './timeline.js';
export { isFailure, flagNotFound } from './failures.js';
export { SnapshotInvalidError } from './snapshot-invalid.error.js';
export type { SnapshotProblem } from './snapshot-invalid.error.js';
export { validateSnapshot } from './validate-snapshot.js';
export type {
  BatchInput,
  BatchItem,
  BooleanResult,
  CompileOptions,
  EvaluationEnv,
  EvaluationErrorCode,
  EvaluationFailure,
  FlagInput,
  HashMode,
  VariantResult,
} from './evaluation-types.js';
export type {
  NamespaceSnapshot,
  SnapshotComparisonType,
  SnapshotConstraint,
  SnapshotDistribution,
  SnapshotDocument,
  SnapshotFlag,
  SnapshotFlagType,
  SnapshotMatchType,
  SnapshotPrerequisite,
  SnapshotRampStep,
  SnapshotRollout,
  SnapshotRolloutType,
  SnapshotRule,
  SnapshotSchedule,
  SnapshotSegment,
  SnapshotSegmentOperator,
  SnapshotThreshold,
  SnapshotVariantRef,
  SnapshotWindow,
} from './snapshot-document.js';
