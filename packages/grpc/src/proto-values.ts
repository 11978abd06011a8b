/**
 * Conversions between the JSON wire values the services speak and the well-known protobuf types as
 * @grpc/proto-loader represents them (options in proto-loading.ts: camelCase fields, enums as
 * names, 64-bit integers as strings).
 */

import { invalid } from '@ensign/core';

/** `google.protobuf.Timestamp` as proto-loader reads and writes it. */
export interface ProtoTimestamp {
  seconds: string;
  nanos: number;
}

/** An RFC 3339 time (what the JSON API answers) as a Timestamp. */
export function toTimestamp(rfc3339: string): ProtoTimestamp {
  const ms = Date.parse(rfc3339);
  const fraction = /\.(\d+)/.exec(rfc3339)?.[1] ?? '';
  const nanos = Number((fraction + '000000000').slice(0, 9));
  return { seconds: String(Math.floor(ms / 1000)), nanos };
}

/** A Timestamp's range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, as its definition sets. */
const MIN_SECONDS = -62_135_596_800;
const MAX_SECONDS = 253_402_300_799;

/**
 * A Timestamp as RFC 3339 with milliseconds; undefined for an absent or zero timestamp. One outside
 * the range its definition sets (or with nanos outside 0…999,999,999) is refused: no time names it.
 */
export function fromTimestamp(ts: Partial<ProtoTimestamp> | null | undefined): string | undefined {
  if (ts === null || ts === undefined) return undefined;
  const seconds = Number(ts.seconds ?? 0);
  const nanos = ts.nanos ?? 0;
  if (seconds === 0 && nanos === 0) return undefined;
  if (!(seconds >= MIN_SECONDS && seconds <= MAX_SECONDS && nanos >= 0 && nanos <= 999_999_999)) {
    throw invalid(`invalid timestamp: ${ts.seconds ?? 0} seconds and ${nanos} nanos is not a time from 0001-01-01 to 9999-12-31`);
  }
  return new Date(seconds * 1000 + Math.floor(nanos / 1e6)).toISOString();
}

/** `google.protobuf.Value` as proto-loader represents it (the oneof `kind` names the set field). */
export type ProtoValue =
  | { nullValue: 'NULL_VALUE'; kind?: 'nullValue' }
  | { numberValue: number; kind?: 'numberValue' }
  | { stringValue: string; kind?: 'stringValue' }
  | { boolValue: boolean; kind?: 'boolValue' }
  | { structValue: ProtoStruct; kind?: 'structValue' }
  | { listValue: { values: ProtoValue[] }; kind?: 'listValue' };

/** `google.protobuf.Struct`. */
export interface ProtoStruct {
  fields: Record<string, ProtoValue>;
}

/** A JSON value as a `google.protobuf.Value`. */
export function toProtoValue(value: unknown): ProtoValue {
  if (value === null || value === undefined) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(toProtoValue) } };
  return { structValue: toProtoStruct(value as Record<string, unknown>) };
}

/** A JSON object as a `google.protobuf.Struct`. */
export function toProtoStruct(object: Record<string, unknown>): ProtoStruct {
  const fields: Record<string, ProtoValue> = {};
  for (const [key, value] of Object.entries(object)) fields[key] = toProtoValue(value);
  return { fields };
}

/** A `google.protobuf.Value` as JSON; the set field is found by `kind` or, without it, by presence. */
export function fromProtoValue(value: Partial<Record<string, unknown>> | null | undefined): unknown {
  if (value === null || value === undefined) return null;
  const kind = (value.kind as string | undefined) ?? Object.keys(value).find((k) => k.endsWith('Value') && value[k] !== undefined && value[k] !== null);
  switch (kind) {
    case 'numberValue':
      return value.numberValue;
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'structValue':
      return fromProtoStruct(value.structValue as ProtoStruct);
    case 'listValue':
      return ((value.listValue as { values?: ProtoValue[] }).values ?? []).map((v) => fromProtoValue(v as Record<string, unknown>));
    default:
      return null;
  }
}

/** A `google.protobuf.Struct` as a JSON object; undefined when absent. */
export function fromProtoStruct(struct: Partial<ProtoStruct> | null | undefined): Record<string, unknown> | undefined {
  if (struct === null || struct === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(struct.fields ?? {})) out[key] = fromProtoValue(value as Record<string, unknown>);
  return out;
}
