import test from 'ava';
import type { BooleanEvaluationResponse, EvaluationReason, VariantEvaluationResponse } from '@ensign/core';
import { booleanResponseJson, variantResponseJson } from '../src/http/evaluation-json.js';

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
