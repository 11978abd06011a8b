/**
 * How a snapshot stream is written, as Flipt v2's gateway frames it: newline-delimited
 * `{"result": <snapshot>}` messages, or, for an `Accept` of exactly `text/event-stream`, Server-Sent
 * Events that tell a browser to refetch. A frame is encoded once per rendered snapshot and shared
 * by every stream that sends it.
 */
import { type AppError, errorBody } from '@ensign/core';
import type { GatedSnapshot } from '../snapshot/gated-snapshot.js';

export type StreamFraming = 'ndjson' | 'sse';

export const SSE_CONTENT_TYPE = 'text/event-stream';

/** COMPAT(flipt): grpc-gateway picks a marshaler by an `Accept` exactly equal to its MIME type; everything else is JSON. */
export const framingOf = (accept: string | undefined): StreamFraming => (accept === SSE_CONTENT_TYPE ? 'sse' : 'ndjson');

export const contentTypeOf = (framing: StreamFraming): string => (framing === 'sse' ? SSE_CONTENT_TYPE : 'application/json');

/** A message as written on the socket: bare, and as one HTTP/1.1 chunk. */
export interface Frame {
  bytes: Buffer;
  chunk: Buffer;
}

const ndjsonFrames = new WeakMap<GatedSnapshot, Frame>();
const sseFrames = new WeakMap<GatedSnapshot, Frame>();

/**
 * The message announcing `served`. NDJSON: the whole document with its `digest` after the flags
 * (proto field order). SSE: `id` is the digest's first 9 characters and `data` asks for a refetch.
 * Its chunk is framed once, so thousands of streams are written the same bytes without any
 * allocation per stream.
 */
export function snapshotFrame(served: GatedSnapshot, framing: StreamFraming): Frame {
  const frames = framing === 'sse' ? sseFrames : ndjsonFrames;
  let frame = frames.get(served);
  if (frame === undefined) {
    const bytes = Buffer.from(framing === 'sse' ? sseText(served.etag) : ndjsonText(served));
    frame = { bytes, chunk: Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]) };
    frames.set(served, frame);
  }
  return frame;
}

const CRLF = Buffer.from('\r\n');

// The body is `{"namespace":…,"flags":[…]}`: the digest goes in before its closing brace.
const ndjsonText = (served: GatedSnapshot): string => `{"result":${served.body.slice(0, -1)},"digest":"${served.etag}"}}\n`;

const sseText = (digest: string): string => `id: ${digest.slice(0, 9)}\ndata: {"etag":"${digest}","type":"refetchEvaluation"}\n\n`;

/** COMPAT(flipt): a stream's error is `{"error": <status>}` on a line, or an SSE event of type `error`. */
export function errorFrame(err: AppError, framing: StreamFraming): string {
  const body = errorBody(err);
  if (framing === 'sse') return `data: ${JSON.stringify({ code: body.code, message: body.message, type: 'error' })}\n\n`;
  return `${JSON.stringify({ error: body })}\n`;
}
