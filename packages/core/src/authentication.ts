/**
 * The authentication records of `/auth/v1`, shared by the auth package (which issues and checks
 * them) and the store (which keeps them), so neither mirrors the other. Keys and method names follow
 * Flipt's spelling (`io.flipt.auth.*`, `auth.Method`) so Flipt clients read them.
 */

/** Authentication methods in their JSON spelling (Flipt's `auth.Method` proto names). */
export const AUTH_METHODS = ['METHOD_NONE', 'METHOD_TOKEN', 'METHOD_OIDC', 'METHOD_KUBERNETES', 'METHOD_GITHUB', 'METHOD_JWT', 'METHOD_CLOUD'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** Metadata keys the methods write. */
export const AUTH_META = {
  tokenName: 'io.flipt.auth.token.name',
  tokenDescription: 'io.flipt.auth.token.description',
  /** A token tied to one namespace. */
  tokenNamespace: 'io.flipt.auth.token.namespace',
  email: 'io.flipt.auth.email',
  name: 'io.flipt.auth.name',
  picture: 'io.flipt.auth.picture',
} as const;

/** An authentication as `/auth/v1` returns it. `id` is absent only for JWTs, which are never stored. */
export interface Authentication {
  id?: string;
  method: AuthMethod;
  /** RFC 3339. */
  createdAt: string;
  updatedAt: string;
  /** RFC 3339; absent when it never expires. */
  expiresAt?: string;
  metadata: Record<string, string>;
}

/** An authentication as stored: always with its id. */
export interface StoredAuthentication extends Authentication {
  id: string;
}

/** What creating an authentication needs: the digest of its client token, never the token. */
export interface NewAuthentication {
  /** base64url SHA-256 of the client token. */
  digest: string;
  method: AuthMethod;
  metadata: Record<string, string>;
  /** Absent = never expires (only static tokens may omit it). */
  expiresAt?: Date;
}

/**
 * Which page of authentications to list. `limit` ≤ 0 means 25 and more than 100 means 100 (Flipt's
 * bounds); `pageToken` is a previous page's `nextPageToken`.
 */
export interface AuthenticationQuery {
  method?: AuthMethod;
  limit: number;
  pageToken?: string;
}

/** A page of authentications, oldest first (Flipt's order), and the token of the next page ('' when none). */
export interface AuthenticationPage {
  authentications: StoredAuthentication[];
  nextPageToken: string;
}

/** A client-token digest that evaluators accept, and what limits it. */
export interface LiveDigest {
  digest: string;
  method: AuthMethod;
  /** The token's namespace (`io.flipt.auth.token.namespace`, trimmed); absent when unscoped. */
  namespace?: string;
  /** RFC 3339; absent when it never expires. */
  expiresAt?: string;
}
