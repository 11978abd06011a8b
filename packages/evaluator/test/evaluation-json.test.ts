import test from 'ava';
import type { BatchEvaluationResponse, BooleanEvaluationResponse, EvaluationReason, VariantEvaluationResponse } from '@ensign/core';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import { batchResponseJson, booleanResponseJson, variantResponseJson } from '../src/http/evaluation-json.js';
import { batchOperation, variantOperation } from '../src/operations/evaluate.operations.js';

/** Strings JSON must escape: quotes, backslashes, control characters, lone surrogates, non-ASCII. */
const AWKWARD = ['', 'plain', 'q"uote', 'back\\slash', 'line\nbreak\t', '\u0000\u001f', '\ud800', 'ünï😀', '</script>', '{"a":[1,2]}'];
const REASONS: EvaluationReason[] = ['UNKNOWN_EVALUATION_REASON', 'MATCH_EVALUATION_REASON', 'DEFAULT_EVALUATION_REASON', 'FLAG_DISABLED_EVALUATION_REASON'];
const NUMBERS = [0, 0.041, 1e-7, 12345.678901234, 3, Number.NaN, Number.POSITIVE_INFINITY];

const pick = <T>(values: readonly T[], i: number): T => values[i % values.length]!;

test('the variant response is byte-identical to JSON.stringify of the same object', (t) => {
  for (let i = 0; i < 500; i++) {
    const response: VariantEvaluationResponse = {
      match: i % 2 === 0,
      segmentKeys: i % 3 === 0 ? [] : [pick(AWKWARD, i), pick(AWKWARD, i + 3)].slice(0, 1 + (i % 2)),
      reason: pick(REASONS, i),
      variantKey: pick(AWKWARD, i + 1),
      variantAttachment: pick(AWKWARD, i + 2),
      requestId: pick(AWKWARD, i + 4),
      requestDurationMillis: pick(NUMBERS, i),
      timestamp: '2026-01-01T00:00:00.123Z',
      flagKey: pick(AWKWARD, i + 5),
    };
    t.is(variantResponseJson(response), JSON.stringify(response));
  }
});

test('the boolean response is byte-identical to JSON.stringify of the same object', (t) => {
  for (let i = 0; i < 500; i++) {
    const response: BooleanEvaluationResponse = {
      enabled: i % 2 === 1,
      reason: pick(REASONS, i),
      requestId: pick(AWKWARD, i),
      requestDurationMillis: pick(NUMBERS, i + 1),
      timestamp: '2026-01-01T00:00:00.123Z',
      flagKey: pick(AWKWARD, i + 2),
      segmentKeys: i % 4 === 0 ? [] : [pick(AWKWARD, i + 3)],
    };
    t.is(booleanResponseJson(response), JSON.stringify(response));
  }
});

test('the batch response is byte-identical to JSON.stringify of the same object, every item type mixed', (t) => {
  for (let i = 0; i < 200; i++) {
    const responses: BatchEvaluationResponse['responses'] = [];
    for (let j = 0; j < i % 7; j++) {
      const k = i + j;
      if (k % 3 === 0) {
        responses.push({
          type: 'VARIANT_EVALUATION_RESPONSE_TYPE',
          variantResponse: {
            match: k % 2 === 0,
            segmentKeys: k % 4 === 0 ? Object.freeze([pick(AWKWARD, k)]) as string[] : [pick(AWKWARD, k + 1)],
            reason: pick(REASONS, k),
            variantKey: pick(AWKWARD, k + 2),
            variantAttachment: pick(AWKWARD, k + 3),
            requestId: pick(AWKWARD, k + 4),
            requestDurationMillis: pick(NUMBERS, k),
            timestamp: '2026-01-01T00:00:00.123Z',
            flagKey: pick(AWKWARD, k + 5),
          },
        });
      } else if (k % 3 === 1) {
        responses.push({
          type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE',
          booleanResponse: {
            enabled: k % 2 === 1,
            reason: pick(REASONS, k),
            requestId: pick(AWKWARD, k),
            requestDurationMillis: pick(NUMBERS, k + 1),
            timestamp: '2026-01-01T00:00:00.123Z',
            flagKey: pick(AWKWARD, k + 2),
            segmentKeys: [],
          },
        });
      } else {
        responses.push({ type: 'ERROR_EVALUATION_RESPONSE_TYPE', errorResponse: { flagKey: pick(AWKWARD, k), namespaceKey: pick(AWKWARD, k + 1), reason: 'NOT_FOUND_ERROR_EVALUATION_REASON' } });
      }
    }
    const response: BatchEvaluationResponse = { requestId: pick(AWKWARD, i), responses, requestDurationMillis: pick(NUMBERS, i) };
    t.is(batchResponseJson(response), JSON.stringify(response));
  }
});

test('a remembered string or segment-key list is written the same every time', (t) => {
  const keys = Object.freeze(['a"b', 'c']) as string[];
  const response: VariantEvaluationResponse = { match: true, segmentKeys: keys, reason: 'MATCH_EVALUATION_REASON', variantKey: 'v"1', variantAttachment: '{"x":1}', requestId: 'r', requestDurationMillis: 1, timestamp: 't', flagKey: 'f\n' };
  const first = variantResponseJson(response);
  for (let i = 0; i < 5000; i++) variantResponseJson({ ...response, flagKey: `churn-${i}` });
  t.is(variantResponseJson(response), first);
  t.is(first, JSON.stringify(response));
});

test('answers made from the engine\'s shared results are written exactly as JSON.stringify writes them, every time', (t) => {
  const source = readySource();
  const held = (key: string) => source.get(key);
  const settings = { now: () => Date.UTC(2026, 0, 1), maxBatchSize: 10 };
  const input = (body: Record<string, unknown>) => ({ body, params: [], header: () => undefined });
  for (let round = 0; round < 3; round++) {
    for (const body of [
      { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } },
      { flagKey: 'color', entityId: 'u2' },
      { flagKey: 'color', entityId: `u${round}`, context: { plan: 'pro' }, requestId: 'r"1' },
    ]) {
      const request = variantOperation.decode(input(body), settings);
      const answer = variantOperation.evaluate(request, held, settings, performance.now()) as VariantEvaluationResponse;
      t.is(variantResponseJson(answer), JSON.stringify(answer));
    }
    const batch = batchOperation.evaluate(batchOperation.decode(input({ requests: [{ flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } }, { flagKey: 'nope', entityId: 'u1' }] }), settings), held, settings, 0) as BatchEvaluationResponse;
    t.is(batchResponseJson(batch), JSON.stringify(batch));
  }
});
