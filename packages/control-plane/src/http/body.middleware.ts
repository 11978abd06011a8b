import { bodyTooLarge, DEFAULT_BODY_LIMIT_BYTES, invalid, isFields, MAX_OBJECT_DEPTH, nestingDepth } from '@ensign/core';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { AppState } from './app-state.js';

interface ParseError extends Error {
  type?: string;
}

function toBodyError(err: ParseError, limitBytes: number): Error {
  if (err.type === 'entity.too.large') return bodyTooLarge(limitBytes);
  if (err instanceof SyntaxError) return invalid(`invalid JSON body: ${err.message}`);
  // Reading a body only fails on what the client sent: a bad encoding, an aborted or short body.
  return invalid(`invalid request body: ${err.message}`);
}

/**
 * Parses request bodies as JSON whatever their Content-Type. COMPAT(flipt): the gateway does the
 * same (Flipt's Go SDK sends text/plain, `curl -d` sends form-urlencoded). An empty or `null`
 * body is `{}`; anything but an object is a 400, and so is an object nested deeper than
 * `MAX_OBJECT_DEPTH` (what a route stores as JSON could not be written back).
 */
export function jsonBodyMiddleware(limitBytes = DEFAULT_BODY_LIMIT_BYTES): Middleware<AppState>[] {
  const forceJson: Middleware<AppState> = (ctx, next) => {
    ctx.req.headers['content-type'] = 'application/json';
    return next();
  };
  const parse = koaBody({
    json: true,
    jsonStrict: false,
    jsonLimit: limitBytes,
    urlencoded: false,
    text: false,
    multipart: false,
    patchNode: false,
    onError: (err) => {
      throw toBodyError(err, limitBytes);
    },
  }) as Middleware<AppState>;
  const requireObject: Middleware<AppState> = (ctx, next) => {
    const body = ctx.request.body;
    if (body === undefined || body === null || body === '') ctx.request.body = {};
    else if (!isFields(body)) throw invalid('invalid JSON body: must be a JSON object');
    else if (nestingDepth(body) > MAX_OBJECT_DEPTH) throw invalid(`invalid JSON body: must not nest deeper than ${MAX_OBJECT_DEPTH} levels`);
    return next();
  };
  return [forceJson, parse, requireObject];
}
