/** GET /internal/v1/evaluation/snapshot/namespace/{key}: how the client-side SDK snapshot is written. */
import type { HttpCall } from '../http/http-call.js';
import { sendBody, sendJson, sendNotModified } from '../http/respond.js';
import { documentOf, type SnapshotAnswer } from '../operations/snapshot.operation.js';

/**
 * The held document with an `ETag`. COMPAT(flipt): an `If-None-Match` exactly equal to it is a 304
 * repeating it; a namespace that does not exist is an empty document without an `ETag`.
 */
export function sendSnapshot(call: HttpCall, answer: SnapshotAnswer): void {
  const { served } = answer;
  if (served === undefined) {
    sendJson(call.res, 200, documentOf(answer), call.style);
    return;
  }
  if (call.headers['if-none-match'] === served.etag) {
    sendNotModified(call.res, served.etag);
    return;
  }
  if (call.style.pretty) sendJson(call.res, 200, served.document, call.style, { ETag: served.etag });
  else sendBody(call.res, 200, served.body, { ETag: served.etag });
}
