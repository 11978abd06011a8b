/** A control plane with evaluation counts on a fresh SQLite store, one clock for the store and the routes, and optionally authentication. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessPolicy, Authenticator } from '@ensign/auth';
import type { UsageBatch, UsageCount } from '@ensign/core';
import { openStore, type SqlStore } from '@ensign/store';
import { pino } from 'pino';
import { type AppAuth, createApp } from '../src/index.js';
import { SESSION } from './auth-harness.js';
import { type Reply, replyOf } from './harness.js';

export interface AnalyticsHarness {
  store: SqlStore;
  /** What the store stamps writes with and the usage routes judge by; tests that move it run serially. */
  clock: { ms: number };
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

export interface AnalyticsHarnessOptions {
  /** Require a credential on every API. */
  auth?: boolean;
  /** With `auth`: serve the evaluation surface without a credential (`exclude.evaluation`). */
  excludeEvaluation?: boolean;
  staleAfterMs?: number;
  start?: number;
}

export async function startAnalyticsHarness(options: AnalyticsHarnessOptions = {}): Promise<AnalyticsHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-cp-analytics-'));
  const clock = { ms: options.start ?? Date.now() };
  const now = () => new Date(clock.ms);
  const store = await openStore({ url: `file:${join(dir, 'x.db')}`, now });
  await store.migrate();
  const auth: AppAuth | undefined = options.auth
    ? {
        store: store.authentications,
        authenticator: new Authenticator({ store: store.authentications }),
        policy: new AccessPolicy({ required: true, exclude: { management: false, evaluation: options.excludeEvaluation === true, ofrep: false } }),
        session: SESSION,
        methods: { token: true, github: false, oidcProviders: [], kubernetes: false, jwt: false },
      }
    : undefined;
  const analytics = { usage: store.usage, now, ...(options.staleAfterMs === undefined ? {} : { staleAfterMs: options.staleAfterMs }) };
  const app = createApp({ store, logger: pino({ level: 'silent' }), analytics, ...(auth === undefined ? {} : { auth }) });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    store,
    clock,
    async get(path, headers = {}) {
      const res = await fetch(base + path, { headers });
      return replyOf(res);
    },
    async post(path, body, headers = {}) {
      const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
      return replyOf(res);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let batches = 0;

/** Stores one batch ending at `at` (epoch ms) with these (flag, value, count) counts, reason MATCH unless told. */
export function record(store: SqlStore, namespaceKey: string, at: number, counts: Array<[flagKey: string, value: string, count: number, reason?: string]>): Promise<void> {
  const batch: UsageBatch = {
    id: `test-${process.pid}-${++batches}`,
    at,
    counts: counts.map(([flagKey, value, count, reason = 'MATCH_EVALUATION_REASON']): UsageCount => ({ namespaceKey, flagKey, value, reason, count })),
  };
  return store.usage.record(batch);
}

/** RFC 3339 without fractional seconds, as the series writes its timestamps. */
export const rfc = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
