/** `/evaluate/v1`: how variant, boolean and batch answers are written. */
import type { BatchEvaluationResponse, BooleanEvaluationResponse, VariantEvaluationResponse } from '@ensign/core';
import type { HttpCall } from '../http/http-call.js';
import { batchResponseJson, booleanResponseJson, variantResponseJson } from '../http/evaluation-json.js';
import { sendBody, sendJson } from '../http/respond.js';

export function sendVariant(call: HttpCall, response: VariantEvaluationResponse): void {
  if (call.style.pretty) sendJson(call.res, 200, response, call.style);
  else sendBody(call.res, 200, variantResponseJson(response));
}

export function sendBoolean(call: HttpCall, response: BooleanEvaluationResponse): void {
  if (call.style.pretty) sendJson(call.res, 200, response, call.style);
  else sendBody(call.res, 200, booleanResponseJson(response));
}

export function sendBatch(call: HttpCall, response: BatchEvaluationResponse): void {
  if (call.style.pretty) sendJson(call.res, 200, response, call.style);
  else sendBody(call.res, 200, batchResponseJson(response));
}

/** Any JSON answer as it is (the legacy routes). */
export function sendAnswer(call: HttpCall, answer: unknown): void {
  sendJson(call.res, 200, answer, call.style);
}
