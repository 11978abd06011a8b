/**
 * What the engine takes and gives. Evaluation never throws: a failure is returned as a value
 * with an OpenFeature-style `errorCode`, and each transport maps it (Flipt HTTP, OFREP, gRPC).
 */
import type { EvaluationReason } from '@ensign/core';

/**
 * Bucketing hash. `murmur3` (default): murmurhash v3 32-bit. `crc32`: Flipt's exact bucketing
 * (variant: crc32(flagKey+entityId) % 1000; boolean threshold: crc32(entityId+flagKey) % 100).
 */
export type HashMode = 'murmur3' | 'crc32';

export interface CompileOptions {
  hash: HashMode;
}

/**
 * What evaluation may know of the world; the engine reads no clock of its own. `now` is called at
 * most once per top-level evaluation call (a batch is one call), and only when a flag with a
 * schedule, window or ramp is reached: flags without them never read the clock.
 */
export interface EvaluationEnv {
  /** Epoch milliseconds. */
  now(): number;
}

/** One flag to evaluate for one entity. */
export interface FlagInput {
  flagKey: string;
  entityId: string;
  /** Values are strings; a missing key and `""` are the same. */
  context: Readonly<Record<string, string>>;
}

export interface VariantResult {
  match: boolean;
  reason: EvaluationReason;
  variantKey: string;
  variantAttachment: string;
  segmentKeys: string[];
  /** Only when a prerequisite failed (the default variant is served): the key of the flag it names. */
  prerequisite?: string;
}

export interface BooleanResult {
  enabled: boolean;
  reason: EvaluationReason;
  segmentKeys: string[];
  /** Only when a prerequisite failed (the flag answers false): the key of the flag it names. */
  prerequisite?: string;
}

/**
 * FLAG_NOT_FOUND → HTTP 404; TYPE_MISMATCH (variant flag evaluated as boolean or the reverse)
 * and PARSE_ERROR (a constraint of unknown type, ranks out of order) → 400; GENERAL → 500.
 */
export type EvaluationErrorCode = 'FLAG_NOT_FOUND' | 'TYPE_MISMATCH' | 'PARSE_ERROR' | 'GENERAL';

export interface EvaluationFailure {
  errorCode: EvaluationErrorCode;
  /** Flipt's message, e.g. `flag "default/foo" not found`, `flag type BOOLEAN_FLAG_TYPE invalid`. */
  message: string;
}

/** One item of a batch, in request order. */
export type BatchItem =
  | { kind: 'variant'; flagKey: string; result: VariantResult }
  | { kind: 'boolean'; flagKey: string; result: BooleanResult }
  /** COMPAT(flipt): a flag that does not exist is an error item; `namespaceKey` is the raw request value. */
  | { kind: 'notFound'; flagKey: string; namespaceKey: string };

/** A batch request item: the flag input plus the namespace it is looked up in (`""` = default). */
export interface BatchInput extends FlagInput {
  namespaceKey: string;
}
