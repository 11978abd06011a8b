import type { Context } from 'koa';

const PRETTY_ACCEPT = 'application/json+pretty';

/** `?pretty` (any value) or `Accept: application/json+pretty` asks for indented output. */
const wantsPretty = (ctx: Context): boolean =>
  Object.hasOwn(ctx.query, 'pretty') || ctx.get('Accept').includes(PRETTY_ACCEPT);

/**
 * Answers with `value` as JSON, Content-Type exactly `application/json` like Flipt's gateway.
 * COMPAT(flipt): indented output keeps zero-valued fields (Flipt's pretty marshaller drops them).
 */
export function sendJson(ctx: Context, value: unknown, status = 200): void {
  ctx.status = status;
  ctx.set('Content-Type', 'application/json');
  ctx.body = wantsPretty(ctx) ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value);
}

/** The `{}` of deletes and orders. */
export const sendEmpty = (ctx: Context): void => sendJson(ctx, {});
