/**
 * Flipt's deprecated legacy evaluation (`/api/v1/evaluate`, `/api/v1/batch-evaluate`, gRPC
 * `flipt.Flipt/Evaluate|BatchEvaluate`). It evaluates variant flags only.
 */
import { randomUUID } from 'node:crypto';
import { AppError, emptyField, type EvaluationRequest, invalidField } from '@ensign/core';
import { type EvaluationEnv, evaluateVariant, flagNotFound, isFailure } from '@ensign/engine';
import { booleanField, decodeItem, decodeRequestItems, stringField } from '../decode/evaluation-request.decode.js';
import { countFailure } from '../metrics/evaluation-tally.js';
import type { EvaluationOperation, EvaluationSettings } from '../request/evaluation-operation.js';
import { type HeldView, namespaceOrDefault } from '../request/hold-namespaces.js';
import { decodeSingle } from './evaluate.operations.js';
import { failureError } from './failure-error.js';
import { clockReadOnce } from './request-clock.js';
import { type Finished, finishedAt } from './response-time.js';
import type { LegacyBatchEvaluationResponse, LegacyEvaluationResponse } from './legacy-responses.js';

/** COMPAT(flipt): the legacy request validation: flagKey and entityId are required. */
function validate(request: EvaluationRequest, at = ''): void {
  if (request.flagKey === '') throw emptyField(`${at}flagKey`);
  if (request.entityId === '') throw emptyField(`${at}entityId`);
}

type Evaluated = Omit<LegacyEvaluationResponse, 'timestamp' | 'requestDurationMillis'>;

/** One legacy request's result; undefined when the flag does not exist and `skipNotFound` is set. */
function evaluateOne(request: EvaluationRequest, held: HeldView, settings: EvaluationSettings, clock: EvaluationEnv, skipNotFound: boolean): Evaluated | undefined | AppError {
  const namespaceKey = namespaceOrDefault(request.namespaceKey);
  const compiled = held(namespaceKey)?.compiled;
  const started = performance.now();
  const result = compiled === undefined ? flagNotFound(namespaceKey, request.flagKey) : evaluateVariant(compiled, request, clock);
  const ms = performance.now() - started;
  if (isFailure(result)) {
    countFailure(settings.recorder, namespaceKey, request.flagKey, result, ms);
    return skipNotFound && result.errorCode === 'FLAG_NOT_FOUND' ? undefined : failureError(result);
  }
  settings.recorder?.variant(namespaceKey, request.flagKey, result, ms);
  return {
    requestId: request.requestId,
    entityId: request.entityId,
    requestContext: request.context,
    match: result.match,
    flagKey: request.flagKey,
    // COMPAT(flipt): the deprecated single segment is the first matched one.
    segmentKey: result.segmentKeys[0] ?? '',
    value: result.variantKey,
    attachment: result.variantAttachment,
    reason: result.reason,
    // COMPAT(flipt): the raw request value, `""` when none was sent on the non-namespaced route.
    namespaceKey: request.namespaceKey,
    segmentKeys: result.segmentKeys,
  };
}

/** Field order of Flipt's response. */
const shaped = (e: Evaluated, { timestamp, requestDurationMillis }: Finished): LegacyEvaluationResponse => ({
  requestId: e.requestId,
  entityId: e.entityId,
  requestContext: e.requestContext,
  match: e.match,
  flagKey: e.flagKey,
  segmentKey: e.segmentKey,
  timestamp,
  value: e.value,
  requestDurationMillis,
  attachment: e.attachment,
  reason: e.reason,
  namespaceKey: e.namespaceKey,
  segmentKeys: e.segmentKeys,
});

export const legacyEvaluateOperation: EvaluationOperation<EvaluationRequest, LegacyEvaluationResponse> = {
  decode(input) {
    const request = decodeSingle(input);
    validate(request);
    if (request.requestId === '') request.requestId = randomUUID();
    return request;
  },
  namespaces: (request) => [request.namespaceKey],
  evaluate(request, held, settings, started) {
    const evaluated = evaluateOne(request, held, settings, settings, false);
    if (evaluated instanceof AppError) return evaluated;
    return shaped(evaluated as Evaluated, finishedAt(started, settings.now));
  },
};

interface LegacyBatch {
  requestId: string;
  excludeNotFound: boolean;
  /** The batch's namespace (`default` when none was sent), which items without one inherit. */
  namespaceKey: string;
  requests: EvaluationRequest[];
}

/**
 * COMPAT(flipt): items without a namespace inherit the batch's (default `default`), a different
 * one is a 400; a missing flag fails the batch unless `excludeNotFound`; inner requestIds are blanked.
 */
export const legacyBatchOperation: EvaluationOperation<LegacyBatch, LegacyBatchEvaluationResponse> = {
  decode(input, settings) {
    const { body } = input;
    const items = decodeRequestItems(body, settings.maxBatchSize);
    const requests = items.map(decodeItem);
    requests.forEach((request, i) => validate(request, `requests[${i}].`));
    const requestId = stringField(body, 'requestId', 'request_id');
    const excludeNotFound = booleanField(body, 'excludeNotFound', 'exclude_not_found');
    const namespaceKey = namespaceOrDefault(input.params[0] ?? stringField(body, 'namespaceKey', 'namespace_key'));
    return { requestId: requestId === '' ? randomUUID() : requestId, excludeNotFound, namespaceKey, requests };
  },
  /** The batch's namespace and every item's that names its own (a scoped token must cover them all). */
  namespaces: (batch) => [batch.namespaceKey, ...batch.requests.map((request) => request.namespaceKey).filter((key) => key !== '')],
  evaluate(batch, held, settings, started) {
    const clock = clockReadOnce(settings);
    const evaluated: Evaluated[] = [];
    for (const request of batch.requests) {
      // Checked item by item, as Flipt does: an earlier item's failure answers first.
      if (request.namespaceKey === '') request.namespaceKey = batch.namespaceKey;
      else if (request.namespaceKey !== batch.namespaceKey) return invalidField('namespace_key', 'must be the same for all requests if specified');
      const one = evaluateOne(request, held, settings, clock, batch.excludeNotFound);
      if (one instanceof AppError) return one;
      if (one !== undefined) evaluated.push({ ...one, requestId: '' });
    }
    const finished = finishedAt(started, settings.now);
    return {
      requestId: batch.requestId,
      responses: evaluated.map((e) => shaped(e, finished)),
      requestDurationMillis: finished.requestDurationMillis,
    };
  },
};
