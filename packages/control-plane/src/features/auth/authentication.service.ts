/**
 * Authentications behind `/auth/v1`: static tokens, the caller's own record, and the sessions
 * the login methods open. Every change is followed by `changed()` (the live digest set reloads),
 * awaited so the very next evaluation already sees a new token, or no longer a deleted one.
 */
import {
  type Authentication,
  type AuthenticationPage,
  type AuthenticationStore,
  type AuthMethod,
  browserSessionIdentity,
  type Identity,
  type IssuedAuthentication,
  issueAuthentication,
  issueToken,
  sessionParentOf,
  type StoredAuthentication,
  type TokenRequest,
} from '@ensign/auth';
import { notFound } from '@ensign/core';

export interface AuthenticationServiceOptions {
  store: AuthenticationStore;
  /** Lifetime of a login session whose method sets no expiry (`session.token_lifetime`). */
  sessionLifetimeMs: number;
  /** Called after every create, delete or expire. */
  changed?: () => Promise<void>;
  now?: () => Date;
}

/** COMPAT(flipt): the message of an unknown authentication id. */
const missing = () => notFound('getting authentication by token: resource not found');

export class AuthenticationService {
  private readonly store: AuthenticationStore;
  private readonly now: () => Date;

  constructor(private readonly options: AuthenticationServiceOptions) {
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
  }

  async createToken(request: TokenRequest): Promise<IssuedAuthentication> {
    const issued = await issueToken(this.store, request);
    await this.changed();
    return issued;
  }

  /** Opens a session for a login method's identity, ending at its expiry or after the session lifetime. */
  async openSession(identity: Identity): Promise<IssuedAuthentication> {
    const expiresAt = identity.expiresAt ?? new Date(this.now().getTime() + this.options.sessionLifetimeMs);
    const issued = await issueAuthentication(this.store, { ...identity, expiresAt });
    await this.changed();
    return issued;
  }

  /** Opens a browser session for a caller who pasted a credential (see `browserSessionIdentity`). */
  async openBrowserSession(caller: Authentication): Promise<IssuedAuthentication> {
    const issued = await issueAuthentication(this.store, browserSessionIdentity(caller, this.now(), this.options.sessionLifetimeMs));
    await this.changed();
    return issued;
  }

  list(query: { method?: AuthMethod; limit: number; pageToken?: string }): Promise<AuthenticationPage> {
    return this.store.list(query);
  }

  async get(id: string): Promise<StoredAuthentication> {
    const found = await this.store.get(id);
    if (found === undefined) throw missing();
    return found;
  }

  /** COMPAT(flipt): deleting any authentication, of any method; an unknown id changes nothing and is no error. */
  async delete(id: string): Promise<void> {
    let deleted = await this.store.delete(id);
    // The browser sessions opened with it go with it.
    for (const session of await this.sessionsOf(id)) deleted = (await this.store.delete(session.id)) || deleted;
    if (deleted) await this.changed();
  }

  /** Ends an authentication at `at` (now when not given), and the browser sessions opened with it no later. */
  async expire(id: string, at?: Date): Promise<void> {
    const end = at ?? this.now();
    await this.store.expire(id, end);
    for (const session of await this.sessionsOf(id)) {
      if (session.expiresAt === undefined || Date.parse(session.expiresAt) > end.getTime()) await this.store.expire(session.id, end);
    }
    await this.changed();
  }

  /** The browser sessions opened with authentication `id` (a walk over every page: deletions are rare). */
  private async sessionsOf(id: string): Promise<StoredAuthentication[]> {
    const found: StoredAuthentication[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.store.list({ limit: 100, ...(pageToken === undefined ? {} : { pageToken }) });
      for (const a of page.authentications) if (sessionParentOf(a) === id) found.push(a);
      pageToken = page.nextPageToken === '' ? undefined : page.nextPageToken;
    } while (pageToken !== undefined);
    return found;
  }

  private async changed(): Promise<void> {
    await this.options.changed?.();
  }
}
