/**
 * The two hot responses serialised by concatenation: byte-for-byte what `JSON.stringify` gives
 * for the same object (same key order), without building the object first. Strings that come
 * from requests or snapshots go through `JSON.stringify`, so escaping stays exact.
 */
import type { BooleanEvaluationResponse, VariantEvaluationResponse } from '@ensign/core';

const str = JSON.stringify;

/** `[]` for the common empty case without a call. */
const keysJson = (keys: readonly string[]): string => (keys.length === 0 ? '[]' : str(keys));

/** Numbers as JSON writes them (`null` for the non-finite values JSON cannot hold). */
const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

export function variantResponseJson(r: VariantEvaluationResponse): string {
  return (
    '{"match":' + r.match +
    ',"segmentKeys":' + keysJson(r.segmentKeys) +
    ',"reason":' + str(r.reason) +
    ',"variantKey":' + str(r.variantKey) +
    ',"variantAttachment":' + str(r.variantAttachment) +
    ',"requestId":' + str(r.requestId) +
    ',"requestDurationMillis":' + num(r.requestDurationMillis) +
    ',"timestamp":' + str(r.timestamp) +
    ',"flagKey":' + str(r.flagKey) +
    '}'
  );
}

export function booleanResponseJson(r: BooleanEvaluationResponse): string {
  return (
    '{"enabled":' + r.enabled +
    ',"reason":' + str(r.reason) +
    ',"requestId":' + str(r.requestId) +
    ',"requestDurationMillis":' + num(r.requestDurationMillis) +
    ',"timestamp":' + str(r.timestamp) +
    ',"flagKey":' + str(r.flagKey) +
    ',"segmentKeys":' + keysJson(r.segmentKeys) +
    '}'
  );
}
