/** The `/auth/v1` router, assembled from what the composition root enabled. */
import Router from '@koa/router';
import type { AccessPolicy, AuthenticationStore, Authenticator, LoginMethod, SessionSettings } from '@ensign/auth';
import { AUTH_PREFIX } from '../../auth/auth-surface.js';
import type { OperationGuard } from '../../auth/operation-guard.js';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter, AppState } from '../../http/app-state.js';
import { jsonBodyMiddleware } from '../../http/body.middleware.js';
import { registerAuthRoutes } from './auth.routes.js';
import { AuthenticationService } from './authentication.service.js';
import { registerBrowserSessionRoutes } from './browser-session.routes.js';
import { registerLoginMethod, registerServiceAccountRoute, type ServiceAccountVerifier } from './login.routes.js';
import type { EnabledMethods } from './method-catalog.js';

/** Authentication settings and collaborators of the control plane. */
export interface AppAuth {
  store: AuthenticationStore;
  authenticator: Authenticator;
  /** `authentication.required` and `exclude.*`: which routes need a credential. */
  policy: AccessPolicy;
  session: SessionSettings;
  methods: EnabledMethods;
  /** Browser login methods, each under its paths below `/auth/v1/method` (`github` and `codehost`, `oidc/<name>`). */
  loginMethods?: ReadonlyArray<{ paths: readonly string[]; method: LoginMethod }>;
  /** The Kubernetes method: the verifier and how its request body is read. */
  kubernetes?: { verifier: ServiceAccountVerifier; readToken: (body: unknown) => string };
  /** `authorization.required`: who may run which management operation. */
  authorization?: OperationGuard;
  /** The policy's state for `/health` (engine, files, latest error). */
  authorizationStatus?: () => unknown;
  /** Called after every change to authentications (reloads the live digest set). */
  changed?: () => Promise<void>;
}

/** The methods the routers serve; any other on a known path is a 501 like Flipt's. */
const METHODS = ['HEAD', 'GET', 'POST', 'PUT', 'DELETE'];

export function authRouter(auth: AppAuth, bodyLimitBytes: number, op: Operations): AppRouter {
  const router: AppRouter = new Router<AppState>({ prefix: AUTH_PREFIX, methods: METHODS, sensitive: true });
  router.use(...jsonBodyMiddleware(bodyLimitBytes));
  const service = new AuthenticationService({
    store: auth.store,
    sessionLifetimeMs: auth.session.tokenLifetimeMs,
    ...(auth.changed === undefined ? {} : { changed: auth.changed }),
  });
  registerAuthRoutes(router, { service, methods: auth.methods, session: auth.session }, op);
  registerBrowserSessionRoutes(router, { service, authenticator: auth.authenticator, policy: auth.policy, session: auth.session });
  for (const { paths, method } of auth.loginMethods ?? []) registerLoginMethod(router, paths, method, service, auth.session);
  if (auth.kubernetes !== undefined) registerServiceAccountRoute(router, auth.kubernetes.verifier, auth.kubernetes.readToken, service);
  return router;
}
