/**
 * Request messages as bytes: fields of the method's own message with values of any size (and, now
 * and then, the wrong wire type, a huge repeated field or deep nesting), mutated bytes and random
 * bytes.
 */
import { type FieldDescriptor, fieldType, type MessageType } from './grpc-methods.js';
import { fixed, lengthDelimited, MAX_FIELD, tag, varint, WIRE } from './protobuf-writer.js';
import type { FuzzRandom } from './random.js';
import { fuzzString } from './strings.js';

export interface MessageOptions {
  /** Keys and ids that exist, for strings (none: odd strings only). */
  known: readonly string[];
}

/** The most a huge repeated field takes. */
const HUGE_BYTES = 3 * 1024 * 1024;

const INTEGERS: readonly bigint[] = [0n, 1n, -1n, 2n ** 31n - 1n, -(2n ** 31n), 2n ** 32n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 100n, 101n, 1000n];
const NUMBERS: readonly number[] = [0, -0, 1, -1, 0.5, 100, 100.0001, 1e308, -1e308, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 5e-324];

function stringValue(rng: FuzzRandom, options: MessageOptions): string {
  return options.known.length > 0 && rng.chance(0.5) ? rng.pick(options.known) : fuzzString(rng);
}

/** One value of `field` with its tag, in the field's wire type. */
function fieldBytes(rng: FuzzRandom, owner: MessageType, field: FieldDescriptor, options: MessageOptions, depth: number): Buffer {
  const type = fieldType(owner, field);
  if ('message' in type) return lengthDelimited(field.number, depth > 6 ? Buffer.alloc(0) : messageBytes(rng, type.message, options, depth + 1));
  if ('enum' in type) return Buffer.concat([tag(field.number, WIRE.varint), varint(rng.chance(0.7) ? rng.pick(type.enum.value).number : rng.pick(INTEGERS))]);
  switch (type.scalar) {
    case 'TYPE_STRING':
      return lengthDelimited(field.number, Buffer.from(stringValue(rng, options)));
    case 'TYPE_BYTES':
      return lengthDelimited(field.number, rng.bytes(rng.size(64)));
    case 'TYPE_DOUBLE':
    case 'TYPE_FIXED64':
    case 'TYPE_SFIXED64':
      return fixed(field.number, WIRE.fixed64, rng.pick(NUMBERS));
    case 'TYPE_FLOAT':
    case 'TYPE_FIXED32':
    case 'TYPE_SFIXED32':
      return fixed(field.number, WIRE.fixed32, rng.pick(NUMBERS));
    default:
      return Buffer.concat([tag(field.number, WIRE.varint), varint(rng.pick(INTEGERS))]);
  }
}

/** A field written with a wire type other than its own. */
function wrongWireType(rng: FuzzRandom, field: FieldDescriptor): Buffer {
  return rng.pick([
    () => Buffer.concat([tag(field.number, WIRE.varint), varint(rng.pick(INTEGERS))]),
    () => lengthDelimited(field.number, rng.bytes(rng.size(32))),
    () => fixed(field.number, WIRE.fixed32, 1),
    () => fixed(field.number, WIRE.fixed64, 1),
    () => Buffer.concat([tag(field.number, rng.pick([WIRE.startGroup, WIRE.endGroup, 6, 7])), rng.bytes(4)]),
  ])();
}

/** A message of `type`: each field now and then, a repeated one many times. */
export function messageBytes(rng: FuzzRandom, type: MessageType, options: MessageOptions, depth = 0): Buffer {
  const parts: Buffer[] = [];
  for (const field of type.descriptor.field) {
    if (rng.chance(0.3)) continue;
    if (rng.chance(0.03)) {
      parts.push(wrongWireType(rng, field));
      continue;
    }
    const repeated = field.label === 'LABEL_REPEATED';
    if (repeated && depth === 0 && rng.chance(0.05)) {
      // Huge: one entry many times, up to a few MiB in all (under the server's 4 MiB message limit).
      const entry = fieldBytes(rng, type, field, options, depth);
      parts.push(Buffer.concat(Array<Buffer>(Math.min(rng.between(1_000, 100_000), Math.floor(HUGE_BYTES / entry.length))).fill(entry)));
      continue;
    }
    const count = repeated ? rng.size(6) : rng.chance(0.05) ? 2 : 1;
    for (let i = 0; i < count; i++) parts.push(fieldBytes(rng, type, field, options, depth));
  }
  return Buffer.concat(parts);
}

/** A `google.protobuf.Value` holding lists (or structs) nested `depth` deep, written inside out in one pass. */
export function deepValue(depth: number): Buffer {
  const innermost = Buffer.concat([tag(3, WIRE.bytes), varint(1), Buffer.from('x')]);
  const prefixes: Buffer[] = [];
  let size = innermost.length;
  for (let i = 0; i < depth; i++) {
    // A list: Value.listValue (6) { values (1): inner }; a struct: Value.structValue (5) { fields (1): { key (1): "k", value (2): inner } }.
    const prefix =
      i % 2 === 0
        ? (() => {
            const values = Buffer.concat([tag(1, WIRE.bytes), varint(size)]);
            return Buffer.concat([tag(6, WIRE.bytes), varint(values.length + size), values]);
          })()
        : (() => {
            const entry = Buffer.concat([tag(1, WIRE.bytes), varint(1), Buffer.from('k'), tag(2, WIRE.bytes), varint(size)]);
            const fields = Buffer.concat([tag(1, WIRE.bytes), varint(entry.length + size), entry]);
            return Buffer.concat([tag(5, WIRE.bytes), varint(fields.length + size), fields]);
          })();
    size += prefix.length;
    prefixes.push(prefix);
  }
  return Buffer.concat([...prefixes.reverse(), innermost]);
}

/** The first field of `type` (or any below it) that is a `google.protobuf.Struct`, as the path of field numbers to it. */
export function structPath(type: MessageType, depth = 0): number[] | undefined {
  if (depth > 3) return undefined;
  for (const field of type.descriptor.field) {
    const t = fieldType(type, field);
    if (!('message' in t)) continue;
    if (t.message.fullName === 'google.protobuf.Struct') return [field.number];
    const below = structPath(t.message, depth + 1);
    if (below !== undefined) return [field.number, ...below];
  }
  return undefined;
}

/** `type`'s message with a Struct field (when it has one) nested `depth` deep. */
export function deeplyNested(type: MessageType, depth: number): Buffer | undefined {
  const path = structPath(type);
  if (path === undefined) return undefined;
  // Struct { fields: map<string, Value> } = repeated entry { key = 1; value = 2 }.
  let bytes: Buffer = lengthDelimited(1, Buffer.concat([lengthDelimited(1, Buffer.from('deep')), lengthDelimited(2, deepValue(depth))]));
  for (const field of [...path].reverse()) bytes = lengthDelimited(field, bytes);
  return bytes;
}

/** `bytes` with a few bytes flipped, cut, repeated or inserted. */
export function mutated(rng: FuzzRandom, bytes: Buffer): Buffer {
  let out = Buffer.from(bytes);
  for (let n = rng.between(1, 4); n > 0; n--) {
    const at = rng.int(out.length + 1);
    out = rng.pick([
      () => Buffer.concat([out.subarray(0, at), rng.bytes(rng.between(1, 8)), out.subarray(at)]),
      () => out.subarray(0, at),
      () => Buffer.concat([out, out.subarray(at)]),
      () => {
        const copy = Buffer.from(out);
        if (copy.length > 0) copy.writeUInt8((copy.readUInt8(at % copy.length) ^ (1 << rng.int(8))) & 0xff, at % copy.length);
        return copy;
      },
    ])();
  }
  return out;
}

/** Bytes no decoder reads: the message behind a first field of wire type 7, which does not exist. */
export const undecodable = (bytes: Buffer): Buffer => Buffer.concat([tag(MAX_FIELD, 7), bytes]);
