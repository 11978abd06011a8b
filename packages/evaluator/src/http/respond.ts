/** Writing responses on node:http: one `writeHead` and one `end` per answer. */
import type { ServerResponse } from 'node:http';
import { type AppError, errorBody } from '@ensign/core';

/** How a route wants its JSON printed. */
export interface OutputStyle {
  /** `?pretty` or `Accept: application/json+pretty`: indented output. */
  pretty: boolean;
}

/** Sends an already serialised JSON body. */
export function sendBody(res: ServerResponse, status: number, body: string, extraHeaders?: Record<string, string>): void {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  };
  if (extraHeaders !== undefined) Object.assign(headers, extraHeaders);
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * Serialises `value` and sends it. COMPAT(flipt): the gateway's Content-Type is exactly
 * `application/json`; indented output keeps zero-valued fields (Flipt's pretty printer drops them).
 */
export function sendJson(res: ServerResponse, status: number, value: unknown, style?: OutputStyle, extraHeaders?: Record<string, string>): void {
  sendBody(res, status, style?.pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value), extraHeaders);
}

/** Flipt's `{code, message, details: []}` error body with the error's status. */
export function sendError(res: ServerResponse, err: AppError, extraHeaders?: Record<string, string>): void {
  sendJson(res, err.httpStatus, errorBody(err), undefined, extraHeaders);
}

/** 304 with the entity tag repeated and no body. */
export function sendNotModified(res: ServerResponse, etag: string): void {
  res.writeHead(304, { ETag: etag });
  res.end();
}
