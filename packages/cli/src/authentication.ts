/**
 * Authentication of `ensign server`, built from `authentication.*`: the methods, the checks on
 * every API, the first token, the cleanup of expired authentications, and the live digest set the
 * in-process evaluation checks (and, scaled out, publishes for `ensign evaluator`).
 */
import {
  AccessPolicy,
  Authenticator,
  bootstrapTokens,
  createCodeHostMethod,
  createJwtVerifier,
  createOidcMethods,
  createServiceAccountVerifier,
  type JwtVerifier,
  LiveDigests,
  type LoginMethod,
  ManagementAuthorization,
  PolicyFiles,
  roleMappingResolver,
  serviceAccountTokenOf,
  type SessionSettings,
  TokenCleanup,
} from '@ensign/auth';
import type { DigestBus, DigestWatch } from '@ensign/bus';
import type { AppAuth, AuditTrail, AuthorizationMetricsSource } from '@ensign/control-plane';
import type { EvaluatorAuthOptions } from '@ensign/evaluator';
import type { SqlStore } from '@ensign/store';
import type { Logger } from 'pino';
import { digestSetFromBus } from './auth-digests.js';
import type { EnsignConfig } from './config/config.schema.js';

type AuthConfig = EnsignConfig['authentication'];

/** The `authentication.session.*` settings. */
export const sessionSettings = (auth: AuthConfig): SessionSettings => ({
  domain: auth.session.domain,
  secure: auth.session.secure,
  tokenLifetimeMs: auth.session.token_lifetime,
  stateLifetimeMs: auth.session.state_lifetime,
  csrfKey: auth.session.csrf.key,
});

/** The JWT verifier when the method is enabled (it reads its key file or JWKS URL; no database). */
export function configuredJwtVerifier(auth: AuthConfig): JwtVerifier | undefined {
  const jwt = auth.methods.jwt;
  if (!jwt.enabled) return undefined;
  const claims = jwt.validate_claims;
  return createJwtVerifier({
    ...(jwt.jwks_url === '' ? {} : { jwksUrl: jwt.jwks_url }),
    ...(jwt.public_key_file === '' ? {} : { publicKeyFile: jwt.public_key_file }),
    ...(claims.issuer === '' ? {} : { issuer: claims.issuer }),
    ...(claims.subject === '' ? {} : { subject: claims.subject }),
    audiences: claims.audiences,
  });
}

/** The evaluator's checks over a digest set (the same for `ensign server` and `ensign evaluator`). */
export function evaluatorAuth(auth: AuthConfig, digests: EvaluatorAuthOptions['digests'], jwt: JwtVerifier | undefined): EvaluatorAuthOptions {
  return {
    required: auth.required,
    digests,
    exclude: { ...auth.exclude },
    csrfKey: auth.session.csrf.key,
    ...(jwt === undefined ? {} : { jwt }),
  };
}

/** The browser login methods, each under its paths below `/auth/v1/method`. */
function loginMethods(auth: AuthConfig): Array<{ paths: string[]; method: LoginMethod }> {
  const flow = { stateLifetimeMs: auth.session.state_lifetime };
  const methods: Array<{ paths: string[]; method: LoginMethod }> = [];
  const { oidc, github } = auth.methods;
  if (oidc.enabled) {
    const providers = Object.fromEntries(
      Object.entries(oidc.providers).map(([name, p]) => [
        name,
        { issuerUrl: p.issuer_url, clientId: p.client_id, clientSecret: p.client_secret, redirectAddress: p.redirect_address, scopes: p.scopes, usePkce: p.use_pkce },
      ]),
    );
    for (const [name, method] of createOidcMethods({ emailMatches: oidc.email_matches, providers }, flow)) methods.push({ paths: [`oidc/${name}`], method });
  }
  if (github.enabled) {
    const config = {
      clientId: github.client_id,
      clientSecret: github.client_secret,
      redirectAddress: github.redirect_address,
      scopes: github.scopes,
      serverUrl: github.server_url,
      apiUrl: github.api_url,
      allowedOrganizations: github.allowed_organizations,
      allowedTeams: github.allowed_teams,
    };
    // Flipt's name for the code host and the service spec's; each login returns to its own callback.
    for (const path of ['github', 'codehost']) {
      methods.push({ paths: [path], method: createCodeHostMethod(config, { ...flow, callbackPath: `/auth/v1/method/${path}/callback` }) });
    }
  }
  return methods;
}

/** The policy of `authorization.local`, when authorization is required. */
function authorizationFiles(config: EnsignConfig, logger: Logger): PolicyFiles | undefined {
  const { required, local, roles } = config.authorization;
  if (!required) return undefined;
  const { policy, data } = local;
  return new PolicyFiles({
    logger,
    ...(roles.length === 0 ? {} : { roles: { extraRoles: roleMappingResolver(roles) } }),
    ...(policy.path === '' && policy.opa_url === '' ? {} : { policy: { path: policy.path, pollIntervalMs: policy.poll_interval, ...(policy.opa_url === '' ? {} : { opaUrl: policy.opa_url, opaTimeoutMs: policy.opa_timeout }) } }),
    ...(data.path === '' ? {} : { data: { path: data.path, pollIntervalMs: data.poll_interval } }),
  });
}

/** Authentication of a running server; `start` once the store is migrated, `close` at shutdown. */
export interface ServerAuthentication {
  app: AppAuth;
  /** What `/metrics` counts of authorization, when it is required. */
  authorizationMetrics?: AuthorizationMetricsSource;
  evaluator: EvaluatorAuthOptions;
  /** Creates the first token if needed, loads the digests, starts the background jobs. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ServerAuthenticationOptions {
  config: EnsignConfig;
  store: SqlStore;
  logger: Logger;
  /** Scaled out: where the digest set is published (and sets of other control planes are seen). */
  bus?: DigestBus;
  /** Audit sinks: refused calls are recorded with status denied. */
  audit?: Pick<AuditTrail, 'recordDenied'>;
}

/** Builds every part from the configuration; throws on a method configuration that cannot work. */
export function createServerAuthentication(options: ServerAuthenticationOptions): ServerAuthentication {
  const { config, store, logger, bus, audit } = options;
  const auth = config.authentication;
  const authentications = store.authentications;
  const jwt = configuredJwtVerifier(auth);
  const live = new LiveDigests({
    source: authentications,
    logger,
    intervalMs: config.nats.reconcile_interval,
    // Tokens created or deleted through other servers on the same database, without waiting for the reload.
    checkIntervalMs: config.db.poll_interval,
    ...(bus === undefined ? {} : { publish: (set, loadedAtMs) => bus.publishDigests(set, loadedAtMs) }),
  });
  const refresh = (): Promise<void> => live.refresh();
  const cleanup = new TokenCleanup({
    store: authentications,
    intervalMs: auth.methods.token.cleanup.interval,
    gracePeriodMs: auth.methods.token.cleanup.grace_period,
    logger,
    onDeleted: () => void refresh().catch((err: unknown) => logger.warn({ err }, 'reloading the live token digests failed')),
  });
  const kubernetes = auth.methods.kubernetes;
  const policyFiles = authorizationFiles(config, logger);
  const app: AppAuth = {
    store: authentications,
    authenticator: new Authenticator({ store: authentications, ...(jwt === undefined ? {} : { jwt }) }),
    policy: new AccessPolicy({ required: auth.required, exclude: { ...auth.exclude } }),
    session: sessionSettings(auth),
    methods: {
      token: auth.methods.token.enabled,
      github: auth.methods.github.enabled,
      oidcProviders: auth.methods.oidc.enabled ? Object.keys(auth.methods.oidc.providers) : [],
      kubernetes: kubernetes.enabled,
      jwt: jwt !== undefined,
    },
    loginMethods: loginMethods(auth),
    ...(kubernetes.enabled
      ? {
          kubernetes: {
            verifier: createServiceAccountVerifier({ discoveryUrl: kubernetes.discovery_url, caPath: kubernetes.ca_path, serviceAccountTokenPath: kubernetes.service_account_token_path }),
            readToken: serviceAccountTokenOf,
          },
        }
      : {}),
    changed: refresh,
    ...(policyFiles === undefined
      ? {}
      : {
          authorizationStatus: () => policyFiles.status(),
          authorization: new ManagementAuthorization({
            engine: () => policyFiles,
            onDenied: (denial) => {
              const { operation, input } = denial;
              logger.info({ operation: operation.name, namespace: input.request.namespace, resource: input.request.resource, subject: input.request.subject, action: input.request.action, authentication: input.authentication.id }, 'permission denied');
              audit?.recordDenied(denial);
            },
          }),
        }),
  };
  let watch: DigestWatch | undefined;
  const authorization = app.authorization;

  return {
    app,
    ...(policyFiles === undefined || !(authorization instanceof ManagementAuthorization)
      ? {}
      : { authorizationMetrics: { counts: authorization.counts, reloadFailures: () => policyFiles.reloadFailures } }),
    evaluator: evaluatorAuth(auth, live.current, jwt),
    async start() {
      if (auth.methods.token.enabled) {
        const token = auth.methods.token.bootstrap;
        await bootstrapTokens({ store: authentications, logger, token: token.token, expirationMs: token.expiration, metadata: token.metadata });
      }
      // A policy or data file that does not load fails the start, naming the file and line.
      await policyFiles?.start();
      await live.refresh();
      live.start();
      cleanup.start();
      // Tokens created or deleted through other control planes reach this one's evaluations through the bus.
      if (bus !== undefined) watch = await bus.watchDigests((set, loadedAtMs) => live.adopt(digestSetFromBus(set), loadedAtMs));
    },
    async close() {
      await policyFiles?.stop();
      await watch?.stop();
      await cleanup.stop();
      await live.stop();
    },
  };
}
