/**
 * Decoding evaluation request bodies on the hot path. Like Flipt's legacy jsonpb decoder a field
 * may be spelled in lowerCamelCase or snake_case, `null` means "not sent" (also inside `context`),
 * unknown fields are ignored, and a value of the wrong JSON type is a 400 naming the field.
 */
import { type BatchEvaluationRequest, type EvaluationRequest, type Fields, invalidField, isFields } from '@ensign/core';

/** The value sent under either spelling, `null` counting as not sent. */
const either = (camel: unknown, snake: unknown): unknown => (camel !== undefined && camel !== null ? camel : snake === null ? undefined : snake);

/** A string value, `""` when not sent; errors name it `<at><camel>`. */
function stringValue(value: unknown, at: string, camel: string): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw invalidField(at + camel, 'must be a string');
  return value;
}

/** The value sent under either spelling, read by variable names (the cold paths). */
export function pick(src: Fields, camel: string, snake: string): unknown {
  return either(src[camel], src[snake]);
}

/** A string field, `""` when not sent; errors name it `<at><camel>`. */
export function stringField(src: Fields, camel: string, snake: string, at = ''): string {
  return stringValue(pick(src, camel, snake), at, camel);
}

/** A boolean field, `false` when not sent; errors name it `<at><camel>`. */
export function booleanField(src: Fields, camel: string, snake: string, at = ''): boolean {
  const value = pick(src, camel, snake);
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw invalidField(at + camel, 'must be a boolean');
  return value;
}

const NO_CONTEXT: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The `context` map: string values only, `null` values dropped. A map of strings as sent is used
 * as it is; the engine reads only own string values, so inherited names such as `constructor`
 * count as absent.
 */
export function decodeContext(value: unknown, at = ''): Record<string, string> {
  if (value === undefined || value === null) return NO_CONTEXT;
  if (!isFields(value)) throw invalidField(`${at}context`, 'must be an object of strings');
  let clean = true;
  for (const key in value) {
    const item = value[key];
    if (typeof item === 'string') continue;
    if (item !== null) throw invalidField(`${at}context.${key}`, 'must be a string');
    clean = false;
  }
  if (clean) return value as Record<string, string>;
  const context = Object.create(null) as Record<string, string>;
  for (const key in value) {
    const item = value[key];
    if (typeof item === 'string') context[key] = item;
  }
  return context;
}

/**
 * One `EvaluationRequest`; `at` prefixes field names in errors (`requests[2].`). Each field is read
 * by its literal names rather than through `pick`: bodies parsed from the same client share one
 * shape, so these loads stay monomorphic, which a load by a variable name never is.
 */
export function decodeEvaluationRequest(body: Fields, at = ''): EvaluationRequest {
  const request: EvaluationRequest = {
    requestId: stringValue(either(body['requestId'], body['request_id']), at, 'requestId'),
    namespaceKey: stringValue(either(body['namespaceKey'], body['namespace_key']), at, 'namespaceKey'),
    flagKey: stringValue(either(body['flagKey'], body['flag_key']), at, 'flagKey'),
    entityId: stringValue(either(body['entityId'], body['entity_id']), at, 'entityId'),
    context: decodeContext(body['context'], at),
  };
  // Read for its type only: Ensign evaluates the one current state of a namespace.
  stringValue(either(body['reference'], undefined), at, 'reference');
  return request;
}

/**
 * One item of a batch. Its field names are prefixed (`requests[2].flagKey`) only when it is refused:
 * building the prefix for every item of every batch would cost more than the decoding itself.
 */
export function decodeItem(item: Fields, index: number): EvaluationRequest {
  try {
    return decodeEvaluationRequest(item);
  } catch {
    return decodeEvaluationRequest(item, `requests[${index}].`);
  }
}

/** The `requests` array of a batch, at most `maxItems` long, each item an object. */
export function decodeRequestItems(body: Fields, maxItems: number): Fields[] {
  const value = pick(body, 'requests', 'requests');
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidField('requests', 'must be an array');
  if (value.length > maxItems) throw invalidField('requests', `must contain at most ${maxItems} items`);
  for (let i = 0; i < value.length; i++) {
    if (!isFields(value[i])) throw invalidField(`requests[${i}]`, 'must be an object');
  }
  return value as Fields[];
}

/** A `BatchEvaluationRequest` of at most `maxItems` requests; only the batch's `reference` is read (for its type). */
export function decodeBatchRequest(body: Fields, maxItems: number): BatchEvaluationRequest {
  const items = decodeRequestItems(body, maxItems);
  const requestId = stringField(body, 'requestId', 'request_id');
  stringField(body, 'reference', 'reference');
  return { requestId, requests: items.map(decodeItem) };
}
