/**
 * An `ensign server` with two OIDC providers, each a real oidc-provider on 127.0.0.1: `alpha`
 * demands PKCE (and Ensign sends it), `beta` takes none. Token method on with a fixed bootstrap
 * token, so the test can list the authentications the logins create.
 */
import { type EnsignProcess, freePort, type JsonClient, startEnsign } from '@ensign/testkit';
import { startOidcProvider, type TestAccount, type TestProvider } from '@ensign/testkit/login-counterparts';
import { withToken } from './auth.js';

export const OIDC_BOOTSTRAP_TOKEN = 'oidc-e2e-bootstrap-token';
export const CLIENT_SECRETS = { alpha: 'alpha-client-secret-value', beta: 'beta-client-secret-value' } as const;
export type ProviderName = keyof typeof CLIENT_SECRETS;
export const PROVIDERS = Object.keys(CLIENT_SECRETS) as ProviderName[];

export const ALICE: TestAccount = {
  sub: 'alice',
  email: 'alice@example.com',
  email_verified: true,
  name: 'Alice Example',
  picture: 'https://example.com/alice.png',
  profile: 'https://example.com/alice',
};

/** `authentication.session.*` of the server under test. */
export interface SessionConfig {
  domain: string;
  secure?: boolean;
  token_lifetime?: string;
}

export interface OidcEnsign {
  server: EnsignProcess;
  providers: Record<ProviderName, TestProvider>;
  /** A client with the bootstrap token. */
  admin: JsonClient;
  stop(): Promise<number>;
}

const clientId = (name: ProviderName): string => `ensign-${name}`;

export interface OidcEnsignOptions {
  /** The account the providers log in when the browser names none (a real browser, as in the UI tests). */
  defaultAccount?: string;
}

/** Starts both providers and the server (on a port chosen first: the providers must know its callback URLs). */
export async function startOidcEnsign(session: SessionConfig, options: OidcEnsignOptions = {}): Promise<OidcEnsign> {
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const callback = (name: ProviderName): string => `${address}/auth/v1/method/oidc/${name}/callback`;
  const start = (name: ProviderName, pkce: boolean): Promise<TestProvider> =>
    startOidcProvider({
      accounts: [ALICE],
      clients: [{ client_id: clientId(name), client_secret: CLIENT_SECRETS[name], redirect_uris: [callback(name)] }],
      ...(pkce ? { pkceRequiredFor: [clientId(name)] } : {}),
      ...(options.defaultAccount === undefined ? {} : { defaultAccount: options.defaultAccount }),
    });
  const providers = { alpha: await start('alpha', true), beta: await start('beta', false) };
  const closeProviders = () => Promise.all(Object.values(providers).map((p) => p.close()));
  const provider = (name: ProviderName, usePkce: boolean) => ({
    issuer_url: providers[name].issuer,
    client_id: clientId(name),
    client_secret: CLIENT_SECRETS[name],
    redirect_address: address,
    scopes: ['email', 'profile'],
    use_pkce: usePkce,
  });
  let server: EnsignProcess;
  try {
    server = await startEnsign({
      env: { ENSIGN_SERVER_HTTP_PORT: String(port), ENSIGN_LOG_LEVEL: 'debug' },
      config: {
        authentication: {
          required: true,
          session,
          methods: {
            token: { enabled: true, bootstrap: { token: OIDC_BOOTSTRAP_TOKEN } },
            oidc: { enabled: true, providers: { alpha: provider('alpha', true), beta: provider('beta', false) } },
          },
        },
      },
    });
  } catch (err) {
    await closeProviders();
    throw err;
  }
  return {
    server,
    providers,
    admin: withToken(server.baseUrl, OIDC_BOOTSTRAP_TOKEN),
    async stop() {
      const code = await server.stop();
      await closeProviders();
      return code;
    },
  };
}
