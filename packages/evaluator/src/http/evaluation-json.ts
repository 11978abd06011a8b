/**
 * The hot responses serialised by concatenation: byte-for-byte what `JSON.stringify` gives for the
 * same object (same key order), without building the object first. Every string goes through
 * `JSON.stringify`, so escaping stays exact; the ones that repeat from request to request (flag
 * and variant keys, reasons, attachments, shared segment-key lists) are quoted once and remembered.
 */
import type { BatchEvaluationResponse, BooleanEvaluationResponse, EvaluationResponseItem, VariantEvaluationResponse } from '@ensign/core';
import type { VariantResult } from '@ensign/engine';
import { memoForFrozen } from '../frozen-memo.js';
import { ENGINE_RESULT, type VariantAnswer } from '../operations/engine-result.js';

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
const sharedKeysJson = memoForFrozen((keys: readonly string[]) => str(keys));

const keysJson = (keys: readonly string[]): string => (keys.length === 0 ? '[]' : sharedKeysJson(keys));

/** Numbers as JSON writes them (`null` for the non-finite values JSON cannot hold). */
const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/** The part of an answer its engine result decides, for results built once per compiled rule. */
const resultParts = new WeakMap<VariantResult, string>();

function resultPart(r: VariantEvaluationResponse): string {
  return (
    '{"match":' + r.match +
    ',"segmentKeys":' + keysJson(r.segmentKeys) +
    ',"reason":' + quoted(r.reason) +
    ',"variantKey":' + quoted(r.variantKey) +
    ',"variantAttachment":' + quoted(r.variantAttachment)
  );
}

/** Written once for a shared (frozen) engine result; an answer made otherwise is written field by field. */
function sharedResultPart(r: VariantAnswer): string {
  const result = r[ENGINE_RESULT];
  if (result === undefined || !Object.isFrozen(result)) return resultPart(r);
  let part = resultParts.get(result);
  if (part === undefined) {
    part = resultPart(r);
    resultParts.set(result, part);
  }
  return part;
}

/** The last timestamp written: answers of one millisecond share it (see operations/response-time.ts). */
let lastTimestamp = '';
let lastTimestampJson = '""';

function timestampJson(timestamp: string): string {
  if (timestamp !== lastTimestamp) {
    lastTimestamp = timestamp;
    lastTimestampJson = str(timestamp);
  }
  return lastTimestampJson;
}

/** `,"requestDurationMillis":…,"timestamp":…`, the same for every answer of one batch. */
const timeJson = (requestDurationMillis: number, timestamp: string): string =>
  ',"requestDurationMillis":' + num(requestDurationMillis) + ',"timestamp":' + timestampJson(timestamp);

function variantJson(r: VariantAnswer, time: string): string {
  return sharedResultPart(r) + ',"requestId":' + str(r.requestId) + time + ',"flagKey":' + quoted(r.flagKey) + '}';
}

function booleanJson(r: BooleanEvaluationResponse, time: string): string {
  return (
    '{"enabled":' + r.enabled +
    ',"reason":' + quoted(r.reason) +
    ',"requestId":' + str(r.requestId) +
    time +
    ',"flagKey":' + quoted(r.flagKey) +
    ',"segmentKeys":' + keysJson(r.segmentKeys) +
    '}'
  );
}

export function variantResponseJson(r: VariantAnswer): string {
  return variantJson(r, timeJson(r.requestDurationMillis, r.timestamp));
}

export function booleanResponseJson(r: BooleanEvaluationResponse): string {
  return booleanJson(r, timeJson(r.requestDurationMillis, r.timestamp));
}

/** The time part of an inner answer: the batch's, written once, when it is the batch's. */
class BatchTime {
  private json: string | undefined;

  constructor(
    private readonly requestDurationMillis: number,
    private readonly timestamp: string | undefined,
  ) {}

  of(r: { requestDurationMillis: number; timestamp: string }): string {
    if (r.requestDurationMillis !== this.requestDurationMillis || r.timestamp !== this.timestamp) return timeJson(r.requestDurationMillis, r.timestamp);
    return (this.json ??= timeJson(r.requestDurationMillis, r.timestamp));
  }
}

function itemJson(item: EvaluationResponseItem, time: BatchTime): string {
  switch (item.type) {
    case 'VARIANT_EVALUATION_RESPONSE_TYPE':
      return '{"type":"VARIANT_EVALUATION_RESPONSE_TYPE","variantResponse":' + variantJson(item.variantResponse, time.of(item.variantResponse)) + '}';
    case 'BOOLEAN_EVALUATION_RESPONSE_TYPE':
      return '{"type":"BOOLEAN_EVALUATION_RESPONSE_TYPE","booleanResponse":' + booleanJson(item.booleanResponse, time.of(item.booleanResponse)) + '}';
    case 'ERROR_EVALUATION_RESPONSE_TYPE':
      return str(item);
  }
}

export function batchResponseJson(r: BatchEvaluationResponse): string {
  const first = r.responses.find((item) => item.type !== 'ERROR_EVALUATION_RESPONSE_TYPE');
  const inner = first?.type === 'VARIANT_EVALUATION_RESPONSE_TYPE' ? first.variantResponse : first?.type === 'BOOLEAN_EVALUATION_RESPONSE_TYPE' ? first.booleanResponse : undefined;
  const time = new BatchTime(r.requestDurationMillis, inner?.timestamp);
  let items = '';
  for (let i = 0; i < r.responses.length; i++) items += (i === 0 ? '' : ',') + itemJson(r.responses[i]!, time);
  return '{"requestId":' + str(r.requestId) + ',"responses":[' + items + '],"requestDurationMillis":' + num(r.requestDurationMillis) + '}';
}
