/** Writing snapshot streams: the stream itself, and its failures in the stream's framing. */
import type { ServerResponse } from 'node:http';
import type { AppError } from '@ensign/core';
import type { HttpCall } from '../http/http-call.js';
import type { SnapshotStreams, StreamRequest } from '../streams/snapshot-streams.js';
import { contentTypeOf, errorFrame, type StreamFraming } from '../streams/stream-frames.js';

/** Hands the response to `streams`, which keeps it open. */
export const openStream =
  (streams: SnapshotStreams) =>
  (call: HttpCall, request: StreamRequest): void =>
    streams.open(call.res, request);

/** COMPAT(flipt): a stream refused before its first message answers the error's status with one error frame. */
export function sendStreamError(res: ServerResponse, err: AppError, framing: StreamFraming, extraHeaders?: Record<string, string>): void {
  res.writeHead(err.httpStatus, { 'Content-Type': contentTypeOf(framing), ...extraHeaders });
  res.end(errorFrame(err, framing));
}

const NOT_ACCEPTABLE = 'text/event-stream is the only supported content type for this endpoint';

/** COMPAT(flipt): OFREP's event stream refuses any other `Accept` with this plain-text 406. */
export function sendNotAcceptable(res: ServerResponse): void {
  res.writeHead(406, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(NOT_ACCEPTABLE) });
  res.end(NOT_ACCEPTABLE);
}
