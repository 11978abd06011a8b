/**
 * A namespace-scoped token against every route the control plane's routers register (read from
 * the app itself, not a hand-picked list), with every login method enabled. It is accepted exactly
 * on the management routes of its own namespace (the path's, or on the routes without one the
 * `namespaceKey` the route reads, none meaning `default`) and on `POST /internal/v1/usage` with
 * counts of its namespace only, refused with 401 on another namespace's,
 * on namespace list and create and on `/auth/v1` but the login routes; without a credential every
 * route but the login routes, `/health` and `/metrics` answers 401; an unscoped token passes everywhere.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { AccessPolicy, Authenticator, type Identity, issueToken, type LoginMethod, serviceAccountTokenOf } from '@ensign/auth';
import { openStore, type SqlStore } from '@ensign/store';
import type Router from '@koa/router';
import type Koa from 'koa';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { type AppAuth, type AppState, createApp } from '../src/index.js';
import { bearer, SESSION, UNAUTHENTICATED } from './auth-harness.js';
import { type Reply, replyOf } from './harness.js';

/** The scoped tokens' namespaces; each one's rival is the other. */
const NAMESPACES = ['default', 'team'] as const;
/** Routes registered today with every method enabled, HEAD not counted. */
const ROUTES_TODAY = 80;

/** How a route decides what a namespace-scoped token may do. */
type Kind =
  | 'open' // never authenticated
  | 'login' // obtains a credential: needs none
  | 'unscoped' // needs a credential a scoped token is not: `/auth/v1`, namespace list and create
  | 'credential' // needs a credential, any namespace's will do: `/meta/info`
  | 'namespaced' // `/api/v1/namespaces/{ns}…`: the path's namespace
  | 'legacy' // `/api/v1` without a namespace segment: the `namespaceKey` the route reads, else `default`
  | 'counts'; // `POST /internal/v1/usage`: the namespace of every count the body carries

/** Every route pattern the rules know; a route matching none fails the test (nothing is skipped). */
const KINDS: ReadonlyArray<readonly [RegExp, Kind]> = [
  [/^\/(health|metrics)$/, 'open'],
  [/^\/auth\/v1\/method$/, 'login'],
  [/^\/auth\/v1\/method\/(oidc\/[\w-]+|github|codehost)\/(authorize|callback)$/, 'login'],
  [/^\/auth\/v1\/method\/kubernetes\/serviceaccount$/, 'login'],
  // The UI's sign-in: reads whatever credential is sent, a scoped token's included.
  [/^\/auth\/v1\/session$/, 'login'],
  [/^\/auth\/v1\/(self|self\/expire|tokens|tokens\/:id|method\/token)$/, 'unscoped'],
  [/^\/api\/v1\/namespaces$/, 'unscoped'],
  [/^\/meta\/info$/, 'credential'],
  // What the caller may do: about itself, so any credential (a scoped token hears of its namespace only).
  [/^\/api\/v1\/permissions$/, 'credential'],
  [/^\/api\/v1\/namespaces\/:\w+(\/.*)?$/, 'namespaced'],
  [/^\/internal\/v1\/analytics\/namespaces\/:\w+(\/.*)?$/, 'namespaced'],
  [/^\/api\/v1\/(flags|segments|audit\/events)(\/.*)?$/, 'legacy'],
  [/^\/internal\/v1\/usage$/, 'counts'],
];

const kindOf = (path: string): Kind | undefined => KINDS.find(([pattern]) => pattern.test(path))?.[1];

/** Every `[method, path]` the app's routers register, in registration order. */
function registeredRoutes(app: Koa<AppState>): Array<[method: string, path: string]> {
  const routes = new Map<string, [string, string]>();
  for (const middleware of app.middleware) {
    // `router.routes()` carries its router (@koa/router's `RouterComposedMiddleware.router`).
    const router = (middleware as { router?: Router<AppState> }).router;
    for (const layer of router?.stack ?? []) {
      // Layers without methods are the router's own middleware (body parsing, scope checks), not routes.
      for (const method of layer.methods) routes.set(`${method} ${String(layer.path)}`, [method, String(layer.path)]);
    }
  }
  return [...routes.values()];
}

/** One request and the namespaces it touches (`unscoped`: none a scoped token may use; `open`: needs no credential). */
interface Probe {
  label: string;
  path: string;
  body?: unknown;
  touches: readonly string[] | 'unscoped' | 'open';
}

/** `pattern` with its namespace parameter (if any) set to `namespace` and every other parameter to `x`. */
const fill = (pattern: string, namespace = ''): string =>
  pattern.replace(/^(\/api\/v1\/namespaces\/|\/internal\/v1\/analytics\/namespaces\/):\w+/, `$1${encodeURIComponent(namespace)}`).replace(/:\w+/g, 'x');

/** Flipt's routes read POST and PUT bodies, and the query of every other method. */
const readsBody = (method: string): boolean => method === 'POST' || method === 'PUT';

function probes(kind: Kind, method: string, pattern: string, own: string, rival: string): Probe[] {
  const write = readsBody(method);
  switch (kind) {
    case 'open':
      return [{ label: 'open', path: pattern, touches: 'open' }];
    case 'login':
      return [{ label: 'login', path: pattern, ...(write ? { body: { serviceAccountToken: 'sa-token' } } : {}), touches: 'open' }];
    case 'unscoped':
      return [{ label: 'no single namespace', path: fill(pattern, own), ...(write ? { body: { key: own, name: own, namespaceKey: own } } : {}), touches: 'unscoped' }];
    case 'credential':
      return [{ label: 'any credential', path: pattern, touches: [own] }];
    case 'namespaced':
      return [
        { label: 'own namespace in the path', path: fill(pattern, own), ...(write ? { body: {} } : {}), touches: [own] },
        { label: 'rival namespace in the path', path: fill(pattern, rival), ...(write ? { body: {} } : {}), touches: [rival] },
        ...(write ? [{ label: 'rival path, own body: the path wins', path: fill(pattern, rival), body: { namespaceKey: own }, touches: [rival] }] : []),
      ];
    case 'counts': {
      const counts = (namespaceKey: string) => ({ namespaceKey, flagKey: 'seeded', value: 'v', reason: 'MATCH_EVALUATION_REASON', count: 1 });
      const batch = (...namespaces: string[]) => ({ id: `every-route-${namespaces.join('-')}-${Math.random()}`, at: Date.now(), counts: namespaces.map(counts) });
      return [
        { label: 'counts of its own namespace', path: pattern, body: batch(own), touches: [own] },
        { label: 'counts of the rival namespace', path: pattern, body: batch(rival), touches: [rival] },
        { label: 'counts of both', path: pattern, body: batch(own, rival), touches: [own, rival] },
      ];
    }
    case 'legacy': {
      const path = fill(pattern);
      const sent = (label: string, namespace: string): Probe =>
        write ? { label, path, body: { namespaceKey: namespace }, touches: [namespace] } : { label, path: `${path}?namespaceKey=${namespace}`, touches: [namespace] };
      return [
        sent('own namespaceKey', own),
        sent('rival namespaceKey', rival),
        { label: 'no namespaceKey (default)', path, ...(write ? { body: {} } : {}), touches: ['default'] },
        // The route reads the other source, so this request is about `default`.
        write
          ? { label: 'own namespaceKey in the query of a write', path: `${path}?namespaceKey=${own}`, body: {}, touches: ['default'] }
          : { label: 'own namespaceKey in the body of a read', path, ...(method === 'DELETE' ? { body: { namespaceKey: own } } : {}), touches: ['default'] },
      ];
    }
  }
}

/** A login method that completes whatever it is sent. */
const anyLogin: LoginMethod = {
  authorize: async (state) => ({ authorizeUrl: `https://idp.example/authorize?state=${state}`, pending: { state, flow: {} } }),
  callback: async (): Promise<Identity> => ({ method: 'METHOD_OIDC', metadata: {}, expiresAt: new Date(Date.now() + 3_600_000) }),
};

interface Running {
  app: Koa<AppState>;
  store: SqlStore;
  call(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

async function start(): Promise<Running> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-cp-every-route-'));
  const store = await openStore({ url: `file:${join(dir, 'x.db')}` });
  await store.migrate();
  const auth: AppAuth = {
    store: store.authentications,
    authenticator: new Authenticator({ store: store.authentications }),
    policy: new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } }),
    session: SESSION,
    methods: { token: true, github: true, oidcProviders: ['acme'], kubernetes: true, jwt: false },
    // As `ensign server` composes them: an OIDC provider, and the code host under both its names.
    loginMethods: [
      { paths: ['oidc/acme'], method: anyLogin },
      { paths: ['github'], method: anyLogin },
      { paths: ['codehost'], method: anyLogin },
    ],
    kubernetes: {
      verifier: { verify: async () => ({ method: 'METHOD_KUBERNETES', metadata: {}, expiresAt: new Date(Date.now() + 3_600_000) }) },
      readToken: serviceAccountTokenOf,
    },
  };
  const app = createApp({ store, logger: pino({ level: 'silent' }), auth, metrics: new Registry(), analytics: { usage: store.usage } });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    store,
    async call(method, path, body, headers) {
      const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' };
      if (body !== undefined) init.body = JSON.stringify(body);
      return replyOf(await fetch(base + path, init));
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let cp: Running;
test.before(async () => {
  cp = await start();
});
test.after.always(() => cp?.close());

test('a namespaced token is accepted on every control-plane route exactly where the spec says', async (t) => {
  const routes = registeredRoutes(cp.app);
  const counted = routes.filter(([method]) => method !== 'HEAD');
  t.true(counted.length >= ROUTES_TODAY, `only ${counted.length} routes enumerated`);
  t.deepEqual(routes.filter(([, path]) => kindOf(path) === undefined), [], 'every route is classified');
  t.deepEqual([...new Set(routes.map(([, path]) => kindOf(path)))].sort(), ['counts', 'credential', 'legacy', 'login', 'namespaced', 'open', 'unscoped'], 'every kind of route is enumerated');

  // Both namespaces exist and hold a flag, so no request below can delete one.
  const setup = bearer((await issueToken(cp.store.authentications, { name: 'setup', description: '' })).clientToken);
  t.is((await cp.call('POST', '/api/v1/namespaces', { key: 'team', name: 'Team' }, setup)).status, 200);
  const scoped: Record<string, Record<string, string>> = {};
  for (const ns of NAMESPACES) {
    t.is((await cp.call('POST', `/api/v1/namespaces/${ns}/flags`, { key: 'seeded', name: 'Seeded' }, setup)).status, 200);
    const created = await cp.call('POST', '/auth/v1/method/token', { name: `scoped-${ns}`, namespaceKey: ns }, setup);
    t.is(created.status, 200, created.text);
    scoped[ns] = bearer(created.json.clientToken);
  }

  const what = (method: string, probe: Probe, who: string, reply: Reply) => `${who} ${method} ${probe.path} (${probe.label}): HTTP ${reply.status} ${reply.text}`;
  const refused = (method: string, probe: Probe, who: string, reply: Reply) => {
    const note = what(method, probe, who, reply);
    t.is(reply.status, 401, note);
    if (method !== 'HEAD') t.deepEqual(reply.json, UNAUTHENTICATED, note);
  };
  // Accepted: past authentication and routed to its handler (which may still answer 4xx).
  const accepted = (method: string, probe: Probe, who: string, reply: Reply) => {
    const note = what(method, probe, who, reply);
    t.false(reply.status === 401 || reply.status === 403 || reply.status === 501, note);
    if (reply.status === 404 && method !== 'HEAD') t.notDeepEqual(reply.json, { code: 5, message: 'Not Found', details: [] }, note);
  };

  let tried = 0;
  for (const [method, pattern] of routes) {
    const kind = kindOf(pattern) as Kind;
    for (const own of NAMESPACES) {
      const rival = NAMESPACES.find((ns) => ns !== own) as string;
      for (const probe of probes(kind, method, pattern, own, rival)) {
        const send = (headers: Record<string, string>) => cp.call(method, probe.path, probe.body, headers);
        const { touches } = probe;
        const inOwn = touches === 'open' || (touches !== 'unscoped' && touches.every((ns) => ns === own));
        (inOwn ? accepted : refused)(method, probe, `token of ${own}`, await send(scoped[own] ?? {}));
        (touches === 'open' ? accepted : refused)(method, probe, 'no credential', await send({}));
        // A fresh unscoped token each time: some routes expire or delete the caller.
        const admin = bearer((await issueToken(cp.store.authentications, { name: 'admin', description: '' })).clientToken);
        accepted(method, probe, 'unscoped token', await send(admin));
        tried++;
      }
    }
  }
  t.true(tried >= routes.length * NAMESPACES.length, 'every route was tried with each token');
});
