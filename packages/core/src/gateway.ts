/**
 * grpc-gateway's HTTP conventions that Flipt clients see, shared by both HTTP edges (the
 * control plane's Koa app and the evaluator's node:http routes), so each is written once.
 */
import { AppError, Code } from './errors.js';

/** The 404 of a path under a prefix the gateway owns but no route serves. */
export const gatewayNotFound = (): AppError => new AppError(Code.NotFound, 'Not Found');

/** The answer to a known path with a method it does not serve (501, code 12). */
export const methodNotAllowed = (): AppError => new AppError(Code.Unimplemented, 'Method Not Allowed');

/** COMPAT(flipt): trailing slashes are stripped before routing. */
export const withoutTrailingSlash = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path);

/** How soon a client may try again after a 503: the outages it reports (a database restarting, an OPA not answering) are short. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The headers an error's answer carries beside its body: COMPAT(flipt) the gateway names the reason
 * of a 401 in `WWW-Authenticate`; a 503 says when to try again (`Retry-After`), so clients and
 * load balancers back off instead of failing the write.
 */
export function errorHeaders(err: AppError): Record<string, string> | undefined {
  if (err.code === Code.Unauthenticated) return { 'WWW-Authenticate': err.message };
  if (err.code === Code.Unavailable) return { 'Retry-After': String(RETRY_AFTER_SECONDS) };
  return undefined;
}
