/** Creating authentications: a fresh client token for the caller, only its digest for the store. */
import { META, type Identity } from './authentication.js';
import type { AuthenticationStore, StoredAuthentication } from './authentication-store.js';
import { SESSION_PARENT } from './browser-session.js';
import { digestOf, generateClientToken } from './client-token.js';

/** A new authentication and the client token that proves it (shown to its owner once). */
export interface IssuedAuthentication {
  clientToken: string;
  authentication: StoredAuthentication;
}

/** What a static token is created with (`POST /auth/v1/method/token`, bootstrap). */
export interface TokenRequest {
  name: string;
  description: string;
  expiresAt?: Date;
  /** Ties the token to one namespace. */
  namespaceKey?: string;
  /** Extra metadata; the token's own keys (name, description, namespace) and a session's link cannot be set. */
  metadata?: Readonly<Record<string, string>>;
  /** A known token value (bootstrap); random otherwise. */
  clientToken?: string;
}

/** Stores an authentication for `identity` under a new (or the given) client token. */
export async function issueAuthentication(
  store: Pick<AuthenticationStore, 'create'>,
  identity: Identity,
  clientToken: string = generateClientToken(),
): Promise<IssuedAuthentication> {
  const authentication = await store.create({
    digest: digestOf(clientToken),
    method: identity.method,
    metadata: identity.metadata,
    ...(identity.expiresAt === undefined ? {} : { expiresAt: identity.expiresAt }),
  });
  return { clientToken, authentication };
}

/**
 * The identity of a static token. COMPAT(flipt): the name is always stored (even empty), the
 * description and namespace only when set.
 */
export function tokenIdentity(request: TokenRequest): Identity {
  const metadata: Record<string, string> = { ...request.metadata, [META.tokenName]: request.name };
  delete metadata[META.tokenDescription];
  delete metadata[META.tokenNamespace];
  delete metadata[SESSION_PARENT];
  if (request.description !== '') metadata[META.tokenDescription] = request.description;
  const namespace = request.namespaceKey?.trim() ?? '';
  if (namespace !== '') metadata[META.tokenNamespace] = namespace;
  return { method: 'METHOD_TOKEN', metadata, ...(request.expiresAt === undefined ? {} : { expiresAt: request.expiresAt }) };
}

/** Creates a static token. */
export const issueToken = (store: Pick<AuthenticationStore, 'create'>, request: TokenRequest): Promise<IssuedAuthentication> =>
  issueAuthentication(store, tokenIdentity(request), request.clientToken);
