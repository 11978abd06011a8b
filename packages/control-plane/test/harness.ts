import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type NamespaceChange, type SqlStore } from '@ensign/store';
import { pino } from 'pino';
import { CommitRelay, createApp, type ManagementStore, type SnapshotsSettled, type UiAssets } from '../src/index.js';

/** One parsed pino line. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export interface CallOptions {
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as is (no Content-Type unless given in `headers`; fetch adds text/plain for strings). */
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** A running control plane on a fresh SQLite file. */
export interface Harness {
  base: string;
  store: SqlStore;
  logs: LogLine[];
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  bodyLimitBytes?: number;
  /** Replaces parts of the real store (e.g. a ping that fails). */
  wrapStore?: (store: SqlStore) => ManagementStore;
  /** A snapshot publisher over the store: it hears every commit and writes wait for it. */
  snapshots?: (store: SqlStore) => SnapshotsSettled & { notify(change: NamespaceChange): void };
  /** How long a write waits for its snapshot before answering anyway. */
  settleTimeoutMs?: number;
  /** The web UI's files, served at `/`. */
  ui?: UiAssets;
}

/** Starts `createApp` on 127.0.0.1, port 0, over a migrated SQLite store in a temp directory. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-cp-'));
  const relay = new CommitRelay();
  const store = await openStore({ url: `file:${join(dir, 'x.db')}`, onCommit: relay.onCommit });
  await store.migrate();
  const snapshots = options.snapshots?.(store);
  if (snapshots !== undefined) relay.attach((change) => snapshots.notify(change));
  const logs: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  const app = createApp({
    store: options.wrapStore ? options.wrapStore(store) : store,
    logger,
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
    ...(snapshots === undefined ? {} : { snapshots }),
    ...(options.settleTimeoutMs === undefined ? {} : { settleTimeoutMs: options.settleTimeoutMs }),
    ...(options.ui === undefined ? {} : { ui: options.ui }),
  });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  async function call(method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Uint8Array | undefined = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  return {
    base,
    store,
    logs,
    call,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The `{code, message, details}` body of an InvalidArgument error. */
export const invalidBody = (message: string) => ({ code: 3, message, details: [] });
