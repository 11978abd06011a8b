/**
 * Who is using the UI. On load it asks `GET /auth/v1/self`: a caller (browser session or pasted
 * token) is signed in; without one, a probe of `/api/v1` tells whether the service is open
 * (authentication not required) or needs a login. Any later 401 returns to the login screen, and
 * so does a reload once the browser session has ended, saying so. After a browser login the page
 * the user asked for before leaving for the identity provider is opened.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, onUnauthenticated, request, setCsrfToken, setStaticToken, storedToken } from '../api/client.js';
import { type Authentication, auth } from '../api/endpoints.js';
import { takeReturnPath } from './return-path.js';

/** What the login page says when a session ended under the user. */
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/** Set while a browser session (cookie) is open, so a reload after it ended can say so. */
const SESSION_FLAG = 'ensign.session';

function flagSession(open: boolean): void {
  try {
    if (open) window.localStorage.setItem(SESSION_FLAG, '1');
    else window.localStorage.removeItem(SESSION_FLAG);
  } catch {
    // Without storage a reload just shows the login page without a reason.
  }
}

function sessionWasOpen(): boolean {
  try {
    return window.localStorage.getItem(SESSION_FLAG) !== null;
  } catch {
    return false;
  }
}

export type SessionState =
  | { kind: 'checking' }
  /** Authentication is not required: everyone may use the UI. */
  | { kind: 'open'; authentication: undefined }
  | { kind: 'signed-in'; authentication: Authentication }
  | { kind: 'signed-out'; reason: string | undefined };

export interface Session {
  state: SessionState;
  /** Signs in with a static client token; rejects with the service's answer when it is refused. */
  signInWithToken(token: string): Promise<void>;
  /**
   * Ends a browser session (`PUT /auth/v1/self/expire`, which also clears its cookie) and shows the
   * login screen; a pasted token is only forgotten by this tab, as scripts may still use it.
   */
  signOut(): Promise<void>;
  /** Asks the service again who the caller is. */
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);

/** What the service says of the current credential. */
async function check(): Promise<SessionState> {
  try {
    const { authentication, csrfToken } = await auth.self();
    setCsrfToken(csrfToken);
    if (storedToken() === undefined) flagSession(true);
    return { kind: 'signed-in', authentication };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
  }
  setCsrfToken(undefined);
  const ended = sessionWasOpen() || storedToken() !== undefined;
  flagSession(false);
  setStaticToken(undefined);
  try {
    await request('GET', '/api/v1/namespaces?limit=1', undefined, { quiet401: true });
    return { kind: 'open', authentication: undefined };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { kind: 'signed-out', reason: ended ? SESSION_ENDED : undefined };
    throw err;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ kind: 'checking' });
  const queries = useQueryClient();
  const navigate = useNavigate();
  // Read when a check ends: `navigate` changes with every location, and the check must not run again for that.
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  const refresh = useCallback(async () => {
    try {
      const next = await check();
      const returnTo = next.kind === 'signed-in' ? takeReturnPath() : undefined;
      if (returnTo === undefined) {
        setState(next);
        return;
      }
      // One transition (the router's own kind of update), so the app first renders at the page asked for, never at `/`.
      startTransition(() => {
        void navigateRef.current(returnTo, { replace: true });
        setState(next);
      });
    } catch (err) {
      setState({ kind: 'signed-out', reason: (err as Error).message });
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(
    () =>
      onUnauthenticated(() => {
        // A pasted token that stopped working is forgotten; a session cookie is cleared by the service.
        if (storedToken() !== undefined) setStaticToken(undefined);
        setCsrfToken(undefined);
        flagSession(false);
        queries.clear();
        setState({ kind: 'signed-out', reason: SESSION_ENDED });
      }),
    [queries],
  );

  const signInWithToken = useCallback(
    async (token: string) => {
      setStaticToken(token);
      let authentication: Authentication;
      try {
        ({ authentication } = await auth.self());
      } catch (err) {
        // The service's own answer (a 401 says the token was refused) is what the login page shows.
        setStaticToken(undefined);
        throw err;
      }
      setCsrfToken(undefined);
      queries.clear();
      setState({ kind: 'signed-in', authentication });
    },
    [queries],
  );

  const signOut = useCallback(async () => {
    if (storedToken() === undefined) {
      try {
        await auth.expireSelf();
      } catch {
        // Asking again below tells whether the session is still there.
      }
    }
    setStaticToken(undefined);
    setCsrfToken(undefined);
    flagSession(false);
    queries.clear();
    await refresh();
  }, [queries, refresh]);

  const value = useMemo(() => ({ state, signInWithToken, signOut, refresh }), [state, signInWithToken, signOut, refresh]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error('useSession outside SessionProvider');
  return session;
}

/** A display name for the signed-in caller, from the metadata each method records. */
export function callerName(authentication: Authentication | undefined): string | undefined {
  if (authentication === undefined) return undefined;
  const m = authentication.metadata;
  return (
    m['io.flipt.auth.name'] ??
    m['io.flipt.auth.email'] ??
    m['io.flipt.auth.github.preferred_username'] ??
    m['io.flipt.auth.token.name'] ??
    authentication.method.replace(/^METHOD_/, '').toLowerCase()
  );
}
