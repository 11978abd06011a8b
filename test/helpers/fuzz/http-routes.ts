/**
 * Every HTTP route `ensign server` serves, read from the route tables themselves: the control
 * plane's Koa routers (built here as the fuzzed server is configured: token authentication,
 * analytics and change requests on) and the evaluation handler's table.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessPolicy, Authenticator } from '@ensign/auth';
import { createControlPlane, createMetricsRegistry } from '@ensign/control-plane';
import { createEvaluationHandler, InProcessSnapshotSource } from '@ensign/evaluator';
import { openStore } from '@ensign/store';

export interface HttpRoute {
  method: string;
  /** The pattern, its parameters written `:name`. */
  path: string;
}

type Logger = Parameters<typeof createControlPlane>[0]['logger'];

/** A logger that drops everything (the routers are only listed, never called). */
const silent: Logger = new Proxy({} as Logger, {
  get: (_, name) => (name === 'child' ? () => silent : name === 'level' ? 'silent' : () => undefined),
});

interface RouterLayer {
  path: string | RegExp;
  methods: string[];
}

/** The routes of every router mounted on the app (HEAD left out: it is GET's). */
function koaRoutes(middleware: readonly unknown[]): HttpRoute[] {
  return middleware.flatMap((fn) => {
    const stack = (fn as { router?: { stack: RouterLayer[] } }).router?.stack ?? [];
    return stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })));
  });
}

export async function httpRoutes(): Promise<HttpRoute[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-fuzz-routes-'));
  const store = await openStore({ url: `file:${join(dir, 'routes.db')}` });
  try {
    const { app } = createControlPlane({
      store,
      logger: silent,
      metrics: createMetricsRegistry(),
      auth: {
        store: store.authentications,
        authenticator: new Authenticator({ store: store.authentications }),
        policy: new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } }),
        session: { domain: '', secure: false, tokenLifetimeMs: 3_600_000, stateLifetimeMs: 600_000, csrfKey: 'routes' },
        methods: { token: true, github: false, oidcProviders: [], kubernetes: false, jwt: false },
      },
      analytics: { usage: store.usage },
      changeRequests: store,
    });
    const evaluation = createEvaluationHandler({ source: new InProcessSnapshotSource(), logger: silent }).routes.map(([method, path]) => ({
      method,
      path: path.replace(/\{(\w+)\}/g, ':$1'),
    }));
    return [...evaluation, ...koaRoutes(app.middleware)];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
