import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommitListener, openStore, type SqlStore } from '@ensign/store';
import { type Logger, pino } from 'pino';
import { type ChangeRequestService, createControlPlane, type ManagementStore, SnapshotPipeline, type UiAssets } from '../src/index.js';
import { VersionMap } from './version-map.js';

/** One parsed pino line. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

/** A response as the tests read it: its text, and its JSON when it is JSON. */
export async function replyOf(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
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
  /** The versions held, with `snapshots: true`. */
  source: VersionMap;
  pipeline: SnapshotPipeline | undefined;
  logs: LogLine[];
  /** The change-request service, with `changeRequests: true`. */
  changeRequests: ChangeRequestService | undefined;
  /** The app's logger (its lines land in `logs`). */
  logger: Logger;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  bodyLimitBytes?: number;
  /** Replaces parts of the real store (e.g. a ping that fails). */
  wrapStore?: (store: SqlStore) => ManagementStore;
  /** Hears every commit; writes answer once it has settled. */
  listen?: (store: SqlStore) => CommitListener;
  /** Holds evaluation snapshots as the server does: each commit applied to its namespace's version. */
  snapshots?: boolean;
  /** The web UI's files, served at `/`. */
  ui?: UiAssets;
  /** Serves change requests over the store. */
  changeRequests?: boolean;
}

/** Starts `createApp` on 127.0.0.1, port 0, over a migrated SQLite store in a temp directory. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-cp-'));
  const store = await openStore({ url: `file:${join(dir, 'x.db')}` });
  await store.migrate();
  const listener = options.listen?.(store);
  if (listener !== undefined) store.onCommit(listener);
  const logs: LogLine[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) });
  const source = new VersionMap();
  let pipeline: SnapshotPipeline | undefined;
  if (options.snapshots === true) {
    pipeline = new SnapshotPipeline({ store, holder: source, compile: { hash: 'murmur3' }, logger });
    store.onCommit(pipeline.onCommit);
    await pipeline.loadAll();
  }
  const { app, changeRequests } = createControlPlane({
    store: options.wrapStore ? options.wrapStore(store) : store,
    logger,
    ...(options.bodyLimitBytes === undefined ? {} : { bodyLimitBytes: options.bodyLimitBytes }),
    ...(options.ui === undefined ? {} : { ui: options.ui }),
    ...(options.changeRequests === true ? { changeRequests: store } : {}),
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
    return replyOf(res);
  }

  return {
    base,
    store,
    source,
    pipeline,
    logs,
    changeRequests,
    logger,
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
