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

/** COMPAT(flipt): the gateway names the reason of a 401 in `WWW-Authenticate`; no extra header otherwise. */
export const challengeHeaders = (err: AppError): Record<string, string> | undefined => (err.code === Code.Unauthenticated ? { 'WWW-Authenticate': err.message } : undefined);
