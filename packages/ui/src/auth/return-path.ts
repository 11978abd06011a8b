/** Keeps the page to return to across a login's trip to the identity provider (this tab only). */
import { decodeReturnPath, encodeReturnPath, isReturnPath } from '../lib/return-path.js';

const KEY = 'ensign.returnTo';

const storage = (): Storage | undefined => {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
};

/** Remembers `path` (a page of the UI) before the browser leaves for a login; forgets any older one otherwise. */
export function rememberReturnPath(path: string): void {
  if (isReturnPath(path)) storage()?.setItem(KEY, encodeReturnPath(path, new Date()));
  else storage()?.removeItem(KEY);
}

/** The remembered page, if still fresh; it is forgotten either way. */
export function takeReturnPath(): string | undefined {
  const store = storage();
  const path = decodeReturnPath(store?.getItem(KEY), new Date());
  store?.removeItem(KEY);
  return path;
}
