/** Protocol Buffers' wire format, written by hand so a case can break it on purpose. */

export const WIRE = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

export function varint(value: bigint | number): Buffer {
  let n = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) byte |= 0x80;
    out.push(byte);
  } while (n > 0n);
  return Buffer.from(out);
}

export const tag = (field: number, wire: number): Buffer => varint((BigInt(field) << 3n) | BigInt(wire));

/** A length-delimited field: `field`'s tag, the length, the bytes. */
export const lengthDelimited = (field: number, bytes: Buffer): Buffer => Buffer.concat([tag(field, WIRE.bytes), varint(bytes.length), bytes]);

export function fixed(field: number, wire: typeof WIRE.fixed32 | typeof WIRE.fixed64, value: number): Buffer {
  const body = Buffer.alloc(wire === WIRE.fixed32 ? 4 : 8);
  if (wire === WIRE.fixed32) body.writeFloatLE(value);
  else body.writeDoubleLE(value);
  return Buffer.concat([tag(field, wire), body]);
}

/** The largest field number; no message of ours has it. */
export const MAX_FIELD = 2 ** 29 - 1;
