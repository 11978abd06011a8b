/**
 * Who is using the UI. On load it asks `GET /auth/v1/session`, which answers 200 either way (so a
 * signed-out load logs no error): a caller is signed in; without one the service is open (sign-in
 * not required) or shows the login page, saying so when a session just ended. Every sign-in is a
 * browser session cookie (a pasted token is traded for one), so it holds in every tab until it
 * ends, and its writes carry the session's CSRF token. A session opened with a namespace-scoped
 * token is held to that namespace. Any later 401 returns to the login screen (a 403 does not: the
 * session may just not make that call). After a browser login the page the user asked for before
 * leaving for the identity provider is opened.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { onUnauthenticated, setCsrfToken, setSessionNamespace } from '../api/client.js';
import { setDraftAuthor } from '../api/drafting.js';

/** Metadata naming the authentication a browser session was opened with (a pasted token's). */
const SESSION_PARENT = 'io.ensign.auth.session.parent';
import { type Authentication, auth, type BrowserSession } from '../api/endpoints.js';
import { takeReturnPath } from './return-path.js';

/** What the login page says when a session ended under the user. */
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

export type SessionState =
  | { kind: 'checking' }
  /** Authentication is not required: everyone may use the UI. */
  | { kind: 'open'; authentication: undefined }
  /** `namespace`: the one namespace a session opened with a namespace-scoped token may touch. */
  | { kind: 'signed-in'; authentication: Authentication; namespace: string | undefined }
  | { kind: 'signed-out'; reason: string | undefined };

export interface Session {
  state: SessionState;
  /** Signs in with a pasted client token; rejects with the service's answer when it is refused. */
  signInWithToken(token: string): Promise<void>;
  /** Ends the browser session (`DELETE /auth/v1/session`, which also clears its cookie) and shows the login screen. */
  signOut(): Promise<void>;
  /** Asks the service again who the caller is. */
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | undefined>(undefined);

/**
 * Set while this browser has a session, cleared by signing out: another tab loading after the
 * session ended (its cookie already cleared by the first tab's load) can still say why it asks.
 */
const SESSION_FLAG = 'ensign.session';

function flagSession(open: boolean): void {
  try {
    if (open) window.localStorage.setItem(SESSION_FLAG, '1');
    else window.localStorage.removeItem(SESSION_FLAG);
  } catch {
    // Without storage another tab just shows the login page without a reason.
  }
}

function sessionWasOpen(): boolean {
  try {
    return window.localStorage.getItem(SESSION_FLAG) !== null;
  } catch {
    return false;
  }
}

/** The state a `/auth/v1/session` answer stands for; remembers its CSRF token and namespace for the requests that follow. */
function adopt(session: BrowserSession, csrfToken: string | undefined): SessionState {
  setCsrfToken(csrfToken);
  setSessionNamespace(session.namespace);
  // Changes are recorded as made by the credential a browser session was opened with, not the session.
  const authentication = session.signedIn ? session.authentication : undefined;
  setDraftAuthor(authentication === undefined ? undefined : (authentication.metadata?.[SESSION_PARENT] ?? authentication.id));
  if (session.signedIn && session.authentication !== undefined) {
    if (session.via === 'cookie') flagSession(true);
    return { kind: 'signed-in', authentication: session.authentication, namespace: session.namespace };
  }
  if (!session.signInRequired) return { kind: 'open', authentication: undefined };
  return { kind: 'signed-out', reason: session.sessionEnded === true || sessionWasOpen() ? SESSION_ENDED : undefined };
}

/** The namespace a signed-in session is held to; undefined when it may use any (or nobody is signed in). */
export const sessionNamespaceOf = (state: SessionState): string | undefined => (state.kind === 'signed-in' ? state.namespace : undefined);

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
      const { session, csrfToken } = await auth.session();
      const next = adopt(session, csrfToken);
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
        // The service has cleared a session cookie it no longer accepts.
        setCsrfToken(undefined);
        setSessionNamespace(undefined);
        queries.clear();
        setState({ kind: 'signed-out', reason: SESSION_ENDED });
      }),
    [queries],
  );

  const signInWithToken = useCallback(
    async (token: string) => {
      // The service's own answer (a 401 says the token was refused) is what the login page shows.
      const { session, csrfToken } = await auth.openSession(token);
      queries.clear();
      setState(adopt(session, csrfToken));
    },
    [queries],
  );

  const signOut = useCallback(async () => {
    // Pages that read are unmounted and their requests stopped before the session ends, so none
    // asks again with a session being ended (a refusal the user would see for nothing).
    setState({ kind: 'checking' });
    await queries.cancelQueries();
    try {
      await auth.endSession();
    } catch {
      // Asking again below tells whether the session is still there.
    }
    flagSession(false);
    setCsrfToken(undefined);
    setSessionNamespace(undefined);
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
