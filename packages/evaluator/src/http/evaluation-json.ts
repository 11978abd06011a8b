/**
 * The hot responses serialised by concatenation: byte-for-byte what `JSON.stringify` gives for the
 * same object (same key order), without building the object first. Every string goes through
 * `JSON.stringify`, so escaping stays exact; the ones that repeat from request to request (flag
 * and variant keys, reasons, attachments, shared segment-key lists) are quoted once and remembered.
 */
import type { BatchEvaluationResponse, BooleanEvaluationResponse, EvaluationResponseItem, VariantEvaluationResponse } from '@ensign/core';

const str = JSON.stringify;

/** Quoted strings seen recently; emptied when full, so request-chosen strings cannot grow it. */
const quotedStrings = new Map<string, string>();
const QUOTED_MAX = 4096;

function quoted(value: string): string {
  let json = quotedStrings.get(value);
  if (json === undefined) {
    json = str(value);
    if (quotedStrings.size >= QUOTED_MAX) quotedStrings.clear();
    quotedStrings.set(value, json);
  }
  return json;
}

/** Segment-key lists the engine shares between results are frozen: each is written once. */
const frozenKeys = new WeakMap<readonly string[], string>();

function keysJson(keys: readonly string[]): string {
  if (keys.length === 0) return '[]';
  if (!Object.isFrozen(keys)) return str(keys);
  let json = frozenKeys.get(keys);
  if (json === undefined) {
    json = str(keys);
    frozenKeys.set(keys, json);
  }
  return json;
}

/** Numbers as JSON writes them (`null` for the non-finite values JSON cannot hold). */
const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

export function variantResponseJson(r: VariantEvaluationResponse): string {
  return (
    '{"match":' + r.match +
    ',"segmentKeys":' + keysJson(r.segmentKeys) +
    ',"reason":' + quoted(r.reason) +
    ',"variantKey":' + quoted(r.variantKey) +
    ',"variantAttachment":' + quoted(r.variantAttachment) +
    ',"requestId":' + str(r.requestId) +
    ',"requestDurationMillis":' + num(r.requestDurationMillis) +
    ',"timestamp":' + quoted(r.timestamp) +
    ',"flagKey":' + quoted(r.flagKey) +
    '}'
  );
}

export function booleanResponseJson(r: BooleanEvaluationResponse): string {
  return (
    '{"enabled":' + r.enabled +
    ',"reason":' + quoted(r.reason) +
    ',"requestId":' + str(r.requestId) +
    ',"requestDurationMillis":' + num(r.requestDurationMillis) +
    ',"timestamp":' + quoted(r.timestamp) +
    ',"flagKey":' + quoted(r.flagKey) +
    ',"segmentKeys":' + keysJson(r.segmentKeys) +
    '}'
  );
}

function itemJson(item: EvaluationResponseItem): string {
  switch (item.type) {
    case 'VARIANT_EVALUATION_RESPONSE_TYPE':
      return '{"type":"VARIANT_EVALUATION_RESPONSE_TYPE","variantResponse":' + variantResponseJson(item.variantResponse) + '}';
    case 'BOOLEAN_EVALUATION_RESPONSE_TYPE':
      return '{"type":"BOOLEAN_EVALUATION_RESPONSE_TYPE","booleanResponse":' + booleanResponseJson(item.booleanResponse) + '}';
    case 'ERROR_EVALUATION_RESPONSE_TYPE':
      return str(item);
  }
}

export function batchResponseJson(r: BatchEvaluationResponse): string {
  let items = '';
  for (let i = 0; i < r.responses.length; i++) items += (i === 0 ? '' : ',') + itemJson(r.responses[i]!);
  return '{"requestId":' + str(r.requestId) + ',"responses":[' + items + '],"requestDurationMillis":' + num(r.requestDurationMillis) + '}';
}
