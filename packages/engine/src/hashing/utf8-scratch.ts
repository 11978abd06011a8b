/**
 * One reusable byte buffer for hashing, so that bucketing encodes the entity id without allocating
 * a buffer and without concatenating strings. Evaluation is synchronous, so one buffer per realm
 * suffices; nothing in it outlives a single hash call except a flag key prefix, which its owner
 * re-checks before relying on it.
 */

const encoder = new TextEncoder();
/** Views are cached for short lengths and offsets; beyond that a fresh view is made. */
const MAX_CACHED_VIEW = 512;
/** Up to this length a JS copy loop beats encodeInto's fixed cost. */
const SHORT_STRING = 16;

let scratch = new Uint8Array(2048);
let heads: Array<Uint8Array | undefined> = [];
let tails: Array<Uint8Array | undefined> = [];
let prefixOwner: unknown = null;

function ensureCapacity(bytes: number): void {
  if (bytes <= scratch.length) return;
  let size = scratch.length * 2;
  while (size < bytes) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(scratch);
  scratch = grown;
  heads = [];
  tails = [];
}

/** Bytes `[offset, end)` of the buffer. */
function tail(offset: number): Uint8Array {
  if (offset > MAX_CACHED_VIEW) return scratch.subarray(offset);
  let view = tails[offset];
  if (view === undefined) {
    view = scratch.subarray(offset);
    tails[offset] = view;
  }
  return view;
}

/** Writes the UTF-8 of `s` at `offset`; returns the byte count. Lone surrogates become U+FFFD. */
export function writeUtf8(s: string, offset: number): number {
  const n = s.length;
  ensureCapacity(offset + n * 3);
  if (n > SHORT_STRING) return encoder.encodeInto(s, tail(offset)).written;
  // Short ASCII strings are cheaper to copy by hand than to send through encodeInto.
  const buf = scratch;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return encoder.encodeInto(s, tail(offset)).written;
    buf[offset + i] = c;
  }
  return n;
}

/** Copies `bytes` to `offset`. */
export function writeBytes(bytes: Uint8Array, offset: number): void {
  ensureCapacity(offset + bytes.length);
  scratch.set(bytes, offset);
}

/**
 * Makes `bytes` the buffer's prefix. `owner` identifies the bytes: when it already owns the prefix
 * the copy is skipped. Any other write at offset 0 must go through `releasePrefix` first.
 */
export function writePrefix(owner: unknown, bytes: Uint8Array): void {
  if (prefixOwner === owner) return;
  writeBytes(bytes, 0);
  prefixOwner = owner;
}

/** Marks the prefix as overwritten. */
export function releasePrefix(): void {
  prefixOwner = null;
}

/** The first `length` bytes of the buffer. */
export function scratchView(length: number): Uint8Array {
  if (length > MAX_CACHED_VIEW) return scratch.subarray(0, length);
  let view = heads[length];
  if (view === undefined) {
    view = scratch.subarray(0, length);
    heads[length] = view;
  }
  return view;
}

/** The UTF-8 of `s`, as a new array (compile time). */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
