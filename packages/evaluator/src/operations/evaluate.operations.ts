/**
 * `flipt.evaluation`: variant, boolean and batch evaluation, as `/evaluate/v1` and gRPC serve them.
 * COMPAT(flipt): a request without a `requestId` is given a fresh one; a namespace in the path
 * wins over the body's.
 */
import { randomUUID } from 'node:crypto';
import type {
  BatchEvaluationRequest,
  BatchEvaluationResponse,
  BooleanEvaluationResponse,
  EvaluationRequest,
  EvaluationResponseItem,
} from '@ensign/core';
import type { AppError } from '@ensign/core';
import { type BatchItem, evaluateBatch, evaluateBoolean, type EvaluationFailure, evaluateVariant, flagNotFound, isFailure } from '@ensign/engine';
import { decodeBatchRequest, decodeEvaluationRequest } from '../decode/evaluation-request.decode.js';
import type { EvaluationInput, EvaluationOperation, EvaluationSettings } from '../request/evaluation-operation.js';
import { namespaceOrDefault } from '../request/hold-namespaces.js';
import { ENGINE_RESULT, type VariantAnswer } from './engine-result.js';
import { countFailure, type EvaluationRecorder } from '../metrics/evaluation-tally.js';
import { failureError } from './failure-error.js';
import { finishedAt } from './response-time.js';

const requestIdOf = (requestId: string): string => (requestId === '' ? randomUUID() : requestId);

/** One evaluation request; the path's namespace (`/evaluate/v1/namespaces/{ns}/...`) wins. */
export function decodeSingle(input: EvaluationInput): EvaluationRequest {
  const request = decodeEvaluationRequest(input.body);
  const pathNamespace = input.params[0];
  if (pathNamespace !== undefined) request.namespaceKey = pathNamespace;
  return request;
}

const singleNamespace = (request: EvaluationRequest): readonly string[] => [request.namespaceKey];

/** The refusal of a failed evaluation, counted as an error where Flipt counts one. */
function failed(settings: EvaluationSettings, namespaceKey: string, flagKey: string, failure: EvaluationFailure, started: number): AppError {
  countFailure(settings.recorder, namespaceKey, flagKey, failure, performance.now() - started);
  return failureError(failure);
}

export const variantOperation: EvaluationOperation<EvaluationRequest, VariantAnswer> = {
  decode: decodeSingle,
  namespaces: singleNamespace,
  evaluate(request, held, settings, started) {
    const namespaceKey = namespaceOrDefault(request.namespaceKey);
    const compiled = held(namespaceKey)?.compiled;
    const result = compiled === undefined ? flagNotFound(namespaceKey, request.flagKey) : evaluateVariant(compiled, request, settings);
    if (isFailure(result)) return failed(settings, namespaceKey, request.flagKey, result, started);
    const { timestamp, requestDurationMillis } = finishedAt(started, settings.now);
    settings.recorder?.variant(namespaceKey, request.flagKey, result, requestDurationMillis);
    return {
      match: result.match,
      segmentKeys: result.segmentKeys,
      reason: result.reason,
      variantKey: result.variantKey,
      variantAttachment: result.variantAttachment,
      requestId: requestIdOf(request.requestId),
      requestDurationMillis,
      timestamp,
      flagKey: request.flagKey,
      [ENGINE_RESULT]: result,
    };
  },
};

export const booleanOperation: EvaluationOperation<EvaluationRequest, BooleanEvaluationResponse> = {
  decode: decodeSingle,
  namespaces: singleNamespace,
  evaluate(request, held, settings, started) {
    const namespaceKey = namespaceOrDefault(request.namespaceKey);
    const compiled = held(namespaceKey)?.compiled;
    const result = compiled === undefined ? flagNotFound(namespaceKey, request.flagKey) : evaluateBoolean(compiled, request, settings);
    if (isFailure(result)) return failed(settings, namespaceKey, request.flagKey, result, started);
    const { timestamp, requestDurationMillis } = finishedAt(started, settings.now);
    settings.recorder?.boolean(namespaceKey, request.flagKey, result, requestDurationMillis);
    return {
      enabled: result.enabled,
      reason: result.reason,
      requestId: requestIdOf(request.requestId),
      requestDurationMillis,
      timestamp,
      flagKey: request.flagKey,
      segmentKeys: result.segmentKeys,
    };
  },
};

/** Each evaluation of a batch, its latency the batch's share per evaluation. */
function countBatch(recorder: EvaluationRecorder, inputs: EvaluationRequest[], results: BatchItem[], batchMs: number): void {
  const ms = batchMs / Math.max(1, results.length);
  results.forEach((item, i) => {
    const namespaceKey = namespaceOrDefault(inputs[i]?.namespaceKey ?? '');
    if (item.kind === 'variant') recorder.variant(namespaceKey, item.flagKey, item.result, ms);
    else if (item.kind === 'boolean') recorder.boolean(namespaceKey, item.flagKey, item.result, ms);
  });
}

/**
 * COMPAT(flipt): inner responses carry their own request's `requestId` (`""` when none was sent)
 * and the whole batch's end time and duration; a flag that does not exist is an error item; any
 * other failure fails the whole batch.
 */
export const batchOperation: EvaluationOperation<BatchEvaluationRequest, BatchEvaluationResponse> = {
  decode: (input, settings) => decodeBatchRequest(input.body, settings.maxBatchSize),
  namespaces: (batch) => batch.requests.map((request) => request.namespaceKey),
  evaluate(batch, held, settings, started) {
    const inputs = batch.requests;
    const results = evaluateBatch((namespaceKey) => held(namespaceKey)?.compiled, inputs, settings);
    if (isFailure(results)) return failureError(results);
    const { timestamp, requestDurationMillis } = finishedAt(started, settings.now);
    if (settings.recorder !== undefined) countBatch(settings.recorder, inputs, results, requestDurationMillis);
    const item = (result: BatchItem, i: number): EvaluationResponseItem => {
      const innerId = inputs[i]?.requestId ?? '';
      switch (result.kind) {
        case 'variant':
          return {
            type: 'VARIANT_EVALUATION_RESPONSE_TYPE',
            variantResponse: {
              match: result.result.match,
              segmentKeys: result.result.segmentKeys,
              reason: result.result.reason,
              variantKey: result.result.variantKey,
              variantAttachment: result.result.variantAttachment,
              requestId: innerId,
              requestDurationMillis,
              timestamp,
              flagKey: result.flagKey,
              [ENGINE_RESULT]: result.result,
            } as VariantAnswer,
          };
        case 'boolean':
          return {
            type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE',
            booleanResponse: {
              enabled: result.result.enabled,
              reason: result.result.reason,
              requestId: innerId,
              requestDurationMillis,
              timestamp,
              flagKey: result.flagKey,
              segmentKeys: result.result.segmentKeys,
            },
          };
        case 'notFound':
          return {
            type: 'ERROR_EVALUATION_RESPONSE_TYPE',
            errorResponse: { flagKey: result.flagKey, namespaceKey: result.namespaceKey, reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' },
          };
      }
    };
    return { requestId: requestIdOf(batch.requestId), responses: results.map(item), requestDurationMillis };
  },
};
