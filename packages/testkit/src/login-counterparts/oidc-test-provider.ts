/**
 * A real OpenID Provider (oidc-provider) on 127.0.0.1 for the OIDC login tests. Its one
 * interaction logs in the account named by the `account` query parameter (or `defaultAccount`
 * when a real browser, which adds none, walks it) and grants every requested scope, so a test
 * browser can walk the whole redirect chain with fetch.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import Provider from 'oidc-provider';

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  profile?: string;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
}

export interface TestProviderOptions {
  clients: TestClient[];
  accounts: TestAccount[];
  /** Clients whose authorization requests must carry a PKCE challenge. */
  pkceRequiredFor?: string[];
  /**
   * Answer `invalid_client` to a secret in the Authorization header although discovery lists
   * client_secret_basic, as some providers do (oidc-provider itself takes either way).
   */
  refuseBasicAuth?: boolean;
  /** The account an interaction without the `account` parameter logs in (a real browser's). */
  defaultAccount?: string;
}

export interface TestProvider {
  issuer: string;
  /** Token requests refused for carrying the secret in the Authorization header. */
  basicAuthRefusals(): number;
  close(): Promise<void>;
}

/** The query parameter naming the account the interaction logs in. */
export const ACCOUNT_PARAMETER = 'account';
/** Where oidc-provider sends the browser to log in and consent. */
export const INTERACTION_PATH = '/interaction/';

const newRsaKeyPair = promisify(generateKeyPair);

export async function startOidcProvider(options: TestProviderOptions): Promise<TestProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await newRsaKeyPair('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const pkceRequiredFor = new Set(options.pkceRequiredFor ?? []);

  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({ grant_types: ['authorization_code'], response_types: ['code'], ...client })),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture', 'profile'] },
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    pkce: { required: (_ctx: unknown, client: { clientId: string }) => pkceRequiredFor.has(client.clientId) },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
    },
  });

  const providerCallback = provider.callback();
  let basicAuthRefusals = 0;
  handle = (req, res) => {
    if (options.refuseBasicAuth && req.url === '/token' && req.headers.authorization) {
      basicAuthRefusals++;
      res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client', error_description: 'use client_secret_post' }));
      return;
    }
    if (req.url?.startsWith(INTERACTION_PATH)) {
      void finishInteraction(provider, req, res, issuer, options.defaultAccount ?? '');
      return;
    }
    providerCallback(req, res);
  };

  return {
    issuer,
    basicAuthRefusals: () => basicAuthRefusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Logs in the requested account and grants what the client asked for, with no page in between. */
async function finishInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse, issuer: string, defaultAccount: string): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const accountId = new URL(req.url ?? '/', issuer).searchParams.get(ACCOUNT_PARAMETER) ?? defaultAccount;
    const grant = new provider.Grant({ accountId, clientId: String(details.params['client_id']) });
    grant.addOIDCScope(String(details.params['scope']));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(err));
  }
}
