/**
 * A control plane over SQLite with token authentication and role-based authorization (a
 * `RolePolicy` over the given role data), listening on 127.0.0.1, with a token per role.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessPolicy, Authenticator, currentActor, type Denial, issueToken, ManagementAuthorization, type RoleData, RolePolicy } from '@ensign/auth';
import { openStore, type SqlStore } from '@ensign/store';
import type Koa from 'koa';
import { pino } from 'pino';
import { type AppAuth, type AppState, createControlPlane } from '../src/index.js';
import { bearer, SESSION } from './auth-harness.js';
import { type Reply, replyOf } from './harness.js';

export interface AuthorizedControlPlane {
  app: Koa<AppState>;
  store: SqlStore;
  /** Every refusal authorization reported, in order. */
  denials: Denial[];
  call(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Reply>;
  /** The headers of a new token holding `role` (none: a token without a role). */
  tokenOf(role: string | undefined, name?: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export interface AuthorizedOptions {
  roles: RoleData;
  /** Serve change requests (and protect namespaces by their policy). */
  changeRequests?: boolean;
}

export async function startAuthorized(options: AuthorizedOptions): Promise<AuthorizedControlPlane> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-cp-authz-'));
  const store = await openStore({ url: `file:${join(dir, 'x.db')}`, actor: currentActor });
  await store.migrate();
  const denials: Denial[] = [];
  const engine = new RolePolicy(options.roles);
  const auth: AppAuth = {
    store: store.authentications,
    authenticator: new Authenticator({ store: store.authentications }),
    policy: new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } }),
    session: SESSION,
    methods: { token: true, github: false, oidcProviders: [], kubernetes: false, jwt: false },
    authorization: new ManagementAuthorization({ engine: () => engine, onDenied: (d) => void denials.push(d) }),
  };
  const { app } = createControlPlane({ store, logger: pino({ level: 'silent' }), auth, analytics: { usage: store.usage }, ...(options.changeRequests === true ? { changeRequests: store } : {}) });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app,
    store,
    denials,
    async call(method, path, body, headers) {
      const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
      if (body !== undefined) init.body = JSON.stringify(body);
      return replyOf(await fetch(base + path, init));
    },
    async tokenOf(role, name = role ?? 'none') {
      const metadata: Record<string, string> = role === undefined ? {} : { 'io.flipt.auth.role': role };
      return bearer((await issueToken(store.authentications, { name, description: '', metadata })).clientToken);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
