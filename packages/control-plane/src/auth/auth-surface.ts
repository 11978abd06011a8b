/** Which part of the control plane's HTTP surface a path belongs to, for the access policy. */
import type { Surface } from '@ensign/auth';

/** Where the authentication API is mounted. */
export const AUTH_PREFIX = '/auth/v1';
/** Where the login methods are mounted, below the authentication API. */
export const METHOD_PREFIX = `${AUTH_PREFIX}/method`;
/** The UI's sign-in routes, which read the credential themselves and answer without one. */
export const BROWSER_SESSION_PREFIX = `${AUTH_PREFIX}/session`;

/** Where in-process evaluators send their evaluation counts: part of the evaluation surface. */
export const USAGE_INGEST_PATH = '/internal/v1/usage';

const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The surface of a request path (trailing slashes already stripped): `evaluation` for the counts
 * in-process evaluators send (`POST /internal/v1/usage`), `management` for `/api/v1` and the
 * analytics API below `/internal/v1` (evaluation's `/internal/v1` is the evaluator's);
 * `auth` for the `/auth/v1` routes that need a caller (self, tokens, token creation); `public` for
 * the login-method listing, the login methods and the UI's session routes, which exist to obtain a credential,
 * and for `/health`, `/metrics`, the UI and anything else outside the APIs.
 */
export function surfaceOf(path: string): Surface {
  if (path === USAGE_INGEST_PATH) return 'evaluation';
  // COMPAT(flipt): `/meta` is behind authentication as the management API is.
  if (under(path, '/api/v1') || under(path, '/internal/v1') || under(path, '/meta')) return 'management';
  if (!under(path, AUTH_PREFIX)) return 'public';
  // COMPAT(flipt): token creation is the one method route that needs a caller.
  if (under(path, `${METHOD_PREFIX}/token`)) return 'auth';
  if (under(path, METHOD_PREFIX) || under(path, BROWSER_SESSION_PREFIX)) return 'public';
  return 'auth';
}
