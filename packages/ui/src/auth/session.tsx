/**
 * Who is using the UI. On load it asks `GET /auth/v1/self`: a caller (browser session or pasted
 * token) is signed in; without one, a probe of `/api/v1` tells whether the service is open
 * (authentication not required) or needs a login. Any later 401 returns to the login screen.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, onUnauthenticated, request, setCsrfToken, setStaticToken, storedToken } from '../api/client.js';
import { type Authentication, auth } from '../api/endpoints.js';

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
  /** Ends the session (`PUT /auth/v1/self/expire`) and shows the login screen. */
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
    return { kind: 'signed-in', authentication };
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
  }
  setCsrfToken(undefined);
  try {
    await request('GET', '/api/v1/namespaces?limit=1', undefined, { quiet401: true });
    return { kind: 'open', authentication: undefined };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { kind: 'signed-out', reason: undefined };
    throw err;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ kind: 'checking' });
  const queries = useQueryClient();

  const refresh = useCallback(async () => {
    try {
      setState(await check());
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
        queries.clear();
        setState({ kind: 'signed-out', reason: 'Your session has ended. Please sign in again.' });
      }),
    [queries],
  );

  const signInWithToken = useCallback(
    async (token: string) => {
      setStaticToken(token);
      const next = await check().catch((err: unknown) => {
        setStaticToken(undefined);
        throw err;
      });
      if (next.kind !== 'signed-in') {
        setStaticToken(undefined);
        throw new ApiError(401, 16, 'this token was not accepted');
      }
      queries.clear();
      setState(next);
    },
    [queries],
  );

  const signOut = useCallback(async () => {
    try {
      await auth.expireSelf();
    } catch {
      // Signed out either way: the credential is forgotten below.
    }
    setStaticToken(undefined);
    setCsrfToken(undefined);
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
