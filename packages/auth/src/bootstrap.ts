/**
 * The first token: on a start with the token method enabled and no token stored yet, one is
 * created so the operator can call the API at all, and its value is logged once.
 */
import type { AuthenticationStore } from './authentication-store.js';
import { issueToken } from './issue.js';

/** The bootstrap token's name. */
export const BOOTSTRAP_TOKEN_NAME = 'initial_bootstrap_token';
const BOOTSTRAP_DESCRIPTION = 'Initial token created when bootstrapping authentication';

/** The logger calls bootstrap makes; a pino logger satisfies it. */
export interface BootstrapLogger {
  info(obj: object, msg: string): void;
}

export interface BootstrapOptions {
  store: Pick<AuthenticationStore, 'create' | 'exists'>;
  logger: BootstrapLogger;
  /** A known token value (`…bootstrap.token`); random when empty or absent. */
  token?: string;
  /** Lifetime of the token (`…bootstrap.expiration`); 0 or absent = never expires. */
  expirationMs?: number;
  /** Metadata of the token (`…bootstrap.metadata`), e.g. the role it holds under authorization. */
  metadata?: Readonly<Record<string, string>>;
  now?: () => Date;
}

/**
 * Creates the bootstrap token when no token exists; resolves whether it did. COMPAT(flipt): the
 * token is logged at info as `access token created` with the field `client_token`, the one place
 * a secret is ever logged, and never again once any token exists.
 */
export async function bootstrapTokens(options: BootstrapOptions): Promise<boolean> {
  const { store, logger } = options;
  if (await store.exists('METHOD_TOKEN')) return false;
  const now = options.now?.() ?? new Date();
  const expirationMs = options.expirationMs ?? 0;
  const fixed = options.token?.trim() ?? '';
  let issued;
  try {
    issued = await issueToken(store, {
      name: BOOTSTRAP_TOKEN_NAME,
      description: BOOTSTRAP_DESCRIPTION,
      ...(expirationMs > 0 ? { expiresAt: new Date(now.getTime() + expirationMs) } : {}),
      ...(fixed === '' ? {} : { clientToken: fixed }),
      ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
    });
  } catch (err) {
    // Another instance starting at the same moment may have created it (a fixed token collides on its digest).
    if (await store.exists('METHOD_TOKEN')) return false;
    throw err;
  }
  logger.info({ client_token: issued.clientToken }, 'access token created');
  return true;
}
