/**
 * OFREP (`/ofrep/v1/evaluate/flags[/{key}]`): OpenFeature's remote evaluation protocol.
 * COMPAT(flipt): the namespace comes from `X-Flipt-Namespace`; without a `targetingKey` every call
 * is a fresh random entity.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DEFAULT_NAMESPACE, type EvaluationReason } from '@ensign/core';
import { type CompiledSnapshot, type EvaluationEnv, type EvaluationFailure, evaluateBoolean, evaluateVariant, flagEnabled, isFailure } from '@ensign/engine';
import { countFailure, type EvaluationRecorder } from '../metrics/evaluation-tally.js';
import { decodeContext, pick } from '../decode/evaluation-request.decode.js';
import { flagNotFound, OfrepError, ofrepFailure } from '../ofrep/ofrep-errors.js';
import type { EvaluationInput, EvaluationOperation } from '../request/evaluation-operation.js';
import { phaseOf } from '../snapshot/snapshot-phase.js';
import { clockReadOnce } from './request-clock.js';

/** OFREP's evaluation result for one flag. */
export interface EvaluatedFlag {
  key: string;
  reason: 'UNKNOWN' | 'DISABLED' | 'TARGETING_MATCH' | 'DEFAULT' | 'PREREQUISITE_FAILED';
  variant: string;
  metadata: Record<string, string>;
  value: string | boolean;
}

const REASONS: Readonly<Record<EvaluationReason, EvaluatedFlag['reason']>> = {
  UNKNOWN_EVALUATION_REASON: 'UNKNOWN',
  FLAG_DISABLED_EVALUATION_REASON: 'DISABLED',
  MATCH_EVALUATION_REASON: 'TARGETING_MATCH',
  DEFAULT_EVALUATION_REASON: 'DEFAULT',
};

/**
 * OFREP's reason for a result; a failed prerequisite, which Flipt's wire reports as a default, is
 * said as such, and the flag it names goes in the metadata as `failedPrerequisite`.
 */
const reasonOf = (result: { reason: EvaluationReason; prerequisite?: string }): EvaluatedFlag['reason'] =>
  result.prerequisite === undefined ? REASONS[result.reason] : 'PREREQUISITE_FAILED';

const prerequisiteMetadata = (prerequisite: string | undefined): Record<string, string> =>
  prerequisite === undefined ? {} : { failedPrerequisite: prerequisite };

/** What every OFREP request carries: its namespace, context and entity. */
interface OfrepRequest {
  namespaceKey: string;
  context: Record<string, string>;
  entityId: string;
}

function decodeOfrep(input: EvaluationInput): OfrepRequest {
  const namespaceKey = input.header('x-flipt-namespace') || DEFAULT_NAMESPACE;
  const context = decodeContext(pick(input.body, 'context', 'context'));
  return { namespaceKey, context, entityId: context.targetingKey || randomUUID() };
}

/** OFREP's error for a failed evaluation, counted as Flipt counts it. */
function failed(recorder: EvaluationRecorder | undefined, request: OfrepRequest, key: string, failure: EvaluationFailure, started: number): OfrepError {
  countFailure(recorder, request.namespaceKey, key, failure, performance.now() - started);
  return ofrepFailure(key, failure);
}

function evaluateFlag(compiled: CompiledSnapshot, key: string, request: OfrepRequest, env: EvaluationEnv, recorder: EvaluationRecorder | undefined): EvaluatedFlag | OfrepError {
  const flag = compiled.flags.get(key);
  if (flag === undefined) return flagNotFound(key);
  const input = { flagKey: key, entityId: request.entityId, context: request.context };
  const started = performance.now();
  if (flag.type === 'BOOLEAN_FLAG_TYPE') {
    const result = evaluateBoolean(compiled, input, env);
    if (isFailure(result)) return failed(recorder, request, key, result, started);
    recorder?.boolean(request.namespaceKey, key, result, performance.now() - started);
    return { key, reason: reasonOf(result), variant: String(result.enabled), metadata: prerequisiteMetadata(result.prerequisite), value: result.enabled };
  }
  const result = evaluateVariant(compiled, input, env);
  if (isFailure(result)) return failed(recorder, request, key, result, started);
  recorder?.variant(request.namespaceKey, key, result, performance.now() - started);
  const metadata = prerequisiteMetadata(result.prerequisite);
  if (result.segmentKeys.length > 0) metadata.segments = result.segmentKeys.join(',');
  if (result.variantAttachment !== '') metadata.attachment = result.variantAttachment;
  return { key, reason: reasonOf(result), variant: result.variantKey, metadata, value: result.variantKey };
}

/** POST /ofrep/v1/evaluate/flags/{key}. */
export const ofrepFlagOperation: EvaluationOperation<OfrepRequest & { key: string }, EvaluatedFlag> = {
  decode(input) {
    const key = input.params[0] ?? '';
    if (key === '') throw new OfrepError(400, 'INVALID_CONTEXT', 'flag key was not provided');
    return { ...decodeOfrep(input), key };
  },
  namespaces: (request) => [request.namespaceKey],
  evaluate(request, held, settings) {
    const compiled = held(request.namespaceKey)?.compiled;
    if (compiled === undefined) return flagNotFound(request.key);
    return evaluateFlag(compiled, request.key, request, settings, settings.recorder);
  },
};

/** The bulk answer: its entity tag, and the flags unless the client's copy is current. */
export interface BulkAnswer {
  namespaceKey: string;
  etag: string | undefined;
  /** Undefined when `If-None-Match` named the current entity tag. */
  flags: EvaluatedFlag[] | undefined;
}

interface BulkRequest extends OfrepRequest {
  /** The keys named by `context.flags`, or undefined when it is not sent. */
  wanted: string[] | undefined;
  ifNoneMatch: string | undefined;
}

/** `context.flags`: comma-separated keys, each trimmed. */
function requestedKeys(context: Record<string, string>): string[] | undefined {
  const list = context.flags;
  if (list === undefined) return undefined;
  return list
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/**
 * The bulk entity tag: the snapshot's checksum and phase (the boundaries of its flags passed) with
 * the request's context (its flag filter included), so an unchanged namespace asked the same
 * question answers 304 until one of its schedules, windows or ramps takes effect.
 */
function bulkEtag(checksum: string, phase: number, context: Record<string, string>): string {
  const canonical = Object.keys(context)
    .sort()
    .map((key) => [key, context[key]]);
  const hash = createHash('sha1').update(checksum);
  if (phase > 0) hash.update(`:${phase}`);
  return hash.update('\0').update(JSON.stringify(canonical)).digest('hex');
}

/**
 * POST /ofrep/v1/evaluate/flags: the flags named in `context.flags`, else every boolean flag and
 * every variant flag enabled now (its schedules applied). The first failing flag fails the whole
 * request. Every flag is evaluated at one time.
 */
export const ofrepBulkOperation: EvaluationOperation<BulkRequest, BulkAnswer> = {
  decode(input) {
    const request = decodeOfrep(input);
    return { ...request, wanted: requestedKeys(request.context), ifNoneMatch: input.header('if-none-match') };
  },
  namespaces: (request) => [request.namespaceKey],
  evaluate(request, held, settings) {
    const snapshot = held(request.namespaceKey);
    const { wanted } = request;
    if (snapshot === undefined) {
      if (wanted !== undefined && wanted[0] !== undefined) return flagNotFound(wanted[0]);
      return { namespaceKey: request.namespaceKey, etag: undefined, flags: [] };
    }
    const env = clockReadOnce(settings);
    const etag = bulkEtag(snapshot.snapshot.checksum, phaseOf(snapshot.snapshot, env), request.context);
    if (request.ifNoneMatch === etag) return { namespaceKey: request.namespaceKey, etag, flags: undefined };
    const { compiled } = snapshot;
    const enabledNow = (key: string): boolean => {
      const flag = compiled.flags.get(key);
      return flag !== undefined && (flag.type === 'BOOLEAN_FLAG_TYPE' || flagEnabled(flag, env));
    };
    const keys = wanted ?? snapshot.snapshot.document.flags.map((flag) => flag.key).filter(enabledNow);
    const flags: EvaluatedFlag[] = [];
    for (const key of keys) {
      const flag = evaluateFlag(snapshot.compiled, key, request, env, settings.recorder);
      if (flag instanceof OfrepError) return flag;
      flags.push(flag);
    }
    return { namespaceKey: request.namespaceKey, etag, flags };
  },
};
