/**
 * Browser sessions opened with a pasted credential (a client token or a JWT): the UI trades it for
 * a session cookie, so the sign-in holds in every tab for the session's life while the credential
 * itself never sits in the page's storage. The session is a stored authentication of its own with
 * the caller's method and metadata (a namespace-scoped token's session keeps its namespace), linked
 * to the authentication it came from so deleting or expiring that one ends it too.
 */
import type { Authentication, Identity } from './authentication.js';

/** Metadata key naming the authentication a browser session was opened with. */
export const SESSION_PARENT = 'io.ensign.auth.session.parent';

/** The authentication a browser session was opened with; undefined for any other authentication. */
export const sessionParentOf = (authentication: Pick<Authentication, 'metadata'>): string | undefined => authentication.metadata[SESSION_PARENT];

/**
 * The identity of a session opened at `now` by `caller`: its method and metadata, ending at the
 * caller's own expiry or after `lifetimeMs`, whichever comes first. A session opened from another
 * session hangs off the same original.
 */
export function browserSessionIdentity(caller: Authentication, now: Date, lifetimeMs: number): Identity {
  const metadata: Record<string, string> = { ...caller.metadata };
  // A JWT is not stored: nothing to hang off, whatever its claims say.
  const parent = caller.id === undefined ? undefined : (sessionParentOf(caller) ?? caller.id);
  if (parent === undefined) delete metadata[SESSION_PARENT];
  else metadata[SESSION_PARENT] = parent;
  const lifetimeEnd = now.getTime() + lifetimeMs;
  const own = caller.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(caller.expiresAt);
  return { method: caller.method, metadata, expiresAt: new Date(Math.min(lifetimeEnd, own)) };
}
