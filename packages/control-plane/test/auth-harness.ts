/** A control plane with authentication on a fresh SQLite store, and a client that can present credentials. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessPolicy, Authenticator, currentActor, type SessionSettings } from '@ensign/auth';
import { openStore, type SqlStore } from '@ensign/store';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { type AppAuth, createApp } from '../src/index.js';
import { type LogLine, type Reply, replyOf } from './harness.js';

export const SESSION: SessionSettings = { domain: '', secure: false, tokenLifetimeMs: 3_600_000, stateLifetimeMs: 600_000, csrfKey: 'test-csrf-key' };

export interface AuthHarness {
  base: string;
  store: SqlStore;
  logs: LogLine[];
  /** How many times the app reported a change to authentications. */
  changes: () => number;
  call(method: string, path: string, options?: { json?: unknown; headers?: Record<string, string> }): Promise<Reply>;
  close(): Promise<void>;
}

export interface AuthHarnessOptions {
  required?: boolean;
  excludeManagement?: boolean;
  token?: boolean;
  /** Replaces parts of the app's authentication settings. */
  auth?: Partial<AppAuth>;
}

export async function startAuthHarness(options: AuthHarnessOptions = {}): Promise<AuthHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-cp-auth-'));
  const store = await openStore({ url: `file:${join(dir, 'x.db')}`, actor: currentActor });
  await store.migrate();
  const logs: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  let changes = 0;
  const auth: AppAuth = {
    store: store.authentications,
    authenticator: new Authenticator({ store: store.authentications }),
    policy: new AccessPolicy({ required: options.required ?? true, exclude: { management: options.excludeManagement ?? false, evaluation: false, ofrep: false } }),
    session: SESSION,
    methods: { token: options.token ?? true, github: false, oidcProviders: [], kubernetes: false, jwt: false },
    changed: async () => {
      changes++;
    },
    ...options.auth,
  };
  const app = createApp({ store, logger, auth, metrics: new Registry() });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function call(method: string, path: string, opts: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(base + path, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
    return replyOf(res);
  }

  return {
    base,
    store,
    logs,
    changes: () => changes,
    call,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An `Authorization: Bearer` header. */
export const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

/** The 401 body every refused credential gets. */
export const UNAUTHENTICATED = { code: 16, message: 'request was not authenticated', details: [] };
