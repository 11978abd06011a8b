import type { AuthenticationPage, AuthenticationQuery, AuthMethod, LiveDigest, NewAuthentication, StoredAuthentication } from '@ensign/core';

export type { AuthenticationPage, LiveDigest, StoredAuthentication } from '@ensign/core';

/**
 * Where authentications live (the SQL store implements it; the control plane hands one in). Client
 * tokens are never stored: only `digest`, the base64url SHA-256 of the token.
 */
export interface AuthenticationStore {
  create(input: NewAuthentication): Promise<StoredAuthentication>;
  /** The authentication of a client-token digest, expired or not; undefined when none. */
  getByDigest(digest: string): Promise<StoredAuthentication | undefined>;
  get(id: string): Promise<StoredAuthentication | undefined>;
  /**
   * A page, oldest first (Flipt's order). `limit` ≤ 0 means 25 and more than 100 means 100 (Flipt's bounds);
   * `pageToken` is a previous page's `nextPageToken` (a decimal offset, as Flipt's); another
   * value is InvalidArgument.
   */
  list(query: AuthenticationQuery): Promise<AuthenticationPage>;
  /** True when something was deleted. */
  delete(id: string): Promise<boolean>;
  /** Sets `expiresAt` (to end a session now or later). */
  expire(id: string, at: Date): Promise<void>;
  /** Deletes authentications that expired before `before`; resolves how many. Safe to run from several instances at once. */
  deleteExpired(before: Date): Promise<number>;
  /** Whether any authentication of `method` exists (bootstrap checks the token method). */
  exists(method: AuthMethod): Promise<boolean>;
  /**
   * Every authentication, of any method, that has not expired at `now` (an `expiresAt` equal to
   * `now` is still live): the set evaluators verify bearer tokens against.
   */
  listLiveDigests(now: Date): Promise<LiveDigest[]>;
}

