/**
 * Where to go after a browser login. The service's callback always redirects to `/`, so the page
 * a user deep-linked to is remembered before leaving for the provider and restored on return,
 * if the login finished within the lifetime of a login's state.
 */

/** As long as the service keeps a login's state by default (`session.state_lifetime`). */
export const RETURN_PATH_LIFETIME_MS = 10 * 60_000;

/** Whether `path` is a page of the UI worth coming back to (not `/`, not another origin, not an API). */
export function isReturnPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return false;
  const pathname = path.split(/[?#]/)[0] ?? '';
  if (pathname === '/' || pathname === '') return false;
  return !/^\/(api|auth|evaluate|internal|ofrep|health|metrics)(\/|$)/.test(pathname);
}

/** The stored form of a path to return to. */
export function encodeReturnPath(path: string, now: Date): string {
  return JSON.stringify({ path, at: now.getTime() });
}

/** The path to return to, from its stored form; undefined when absent, stale or not a UI page. */
export function decodeReturnPath(stored: string | null | undefined, now: Date): string | undefined {
  if (stored === null || stored === undefined) return undefined;
  try {
    const { path, at } = JSON.parse(stored) as { path?: unknown; at?: unknown };
    if (typeof path !== 'string' || typeof at !== 'number') return undefined;
    if (now.getTime() - at > RETURN_PATH_LIFETIME_MS || at > now.getTime() + 60_000) return undefined;
    return isReturnPath(path) ? path : undefined;
  } catch {
    return undefined;
  }
}
