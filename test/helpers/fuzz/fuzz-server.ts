/**
 * The fuzzed server: the built `ensign server` on SQLite (the default database), token
 * authentication required, as a child process, so a crash is its exit and its memory is its own.
 * The fuzz cases get a token of their own; the bootstrap token stays with the test, to read the
 * state and to issue a new token when a case expires the fuzz token.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { type EnsignProcess, eventually, type JsonClient, startEnsign } from '@ensign/testkit';
import { bearerClient, namespaceState, ok } from '../api.js';
import { seedShop, SHOP_FLAGS } from '../evaluation-seed.js';
import { RSS_LINE } from './gc-probe.js';

/** The server's default `server.body_limit`. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface ServerMemory {
  rss: number;
  /** The JS heap in use. */
  heap: number;
  /** What V8 holds for the heap. */
  committed: number;
  external: number;
}

/** `12.3 MiB`. */
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export interface FuzzServer {
  process: EnsignProcess;
  /** The bootstrap token's client: never handed to cases. */
  admin: JsonClient;
  /** The token fuzz cases send (renewed by `renewToken`). */
  token: string;
  /** Keys and ids that exist after seeding. */
  known: string[];
  /** A new fuzz token when the current one no longer authenticates (a case may expire it). */
  renewToken(): Promise<void>;
  /** The server's memory after a full garbage collection, in bytes. */
  memory(): Promise<ServerMemory>;
  /** What the server stores, read through the API (namespaces, their flags and segments, tokens, history). */
  state(): Promise<unknown>;
  stop(): Promise<number>;
}

/** Asks the server to collect garbage and report its memory (see gc-probe.ts). */
async function probe(child: EnsignProcess): Promise<ServerMemory> {
  const reported = () => [...child.logs().matchAll(new RegExp(`${RSS_LINE} (\\d+) heap (\\d+) external (\\d+) committed (\\d+)`, 'g'))];
  const seen = reported().length;
  process.kill(child.pid, 'SIGUSR2');
  let line: RegExpMatchArray | undefined;
  await eventually(() => {
    line = reported()[seen];
    return line !== undefined;
  });
  if (line === undefined) throw new Error('the server did not report its memory');
  return { rss: Number(line[1]), heap: Number(line[2]), external: Number(line[3]), committed: Number(line[4]) };
}

export async function startFuzzServer(): Promise<FuzzServer> {
  const bootstrap = randomBytes(16).toString('hex');
  const probeModule = pathToFileURL(new URL('./gc-probe.js', import.meta.url).pathname).href;
  const child = await startEnsign({
    env: {
      ENSIGN_LOG_LEVEL: 'error',
      ENSIGN_AUTHENTICATION_REQUIRED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: bootstrap,
      NODE_OPTIONS: `--expose-gc --import=${probeModule}`,
      // glibc keeps freed blocks of large bodies for reuse, which reads as growth; returned to the
      // system at once instead, the resident set measures what is held (a leak still shows).
      GLIBC_TUNABLES: 'glibc.malloc.arena_max=1:glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=131072',
    },
  });
  const admin = bearerClient(child.baseUrl, bootstrap);
  const issue = async () => (ok(await admin.post('/auth/v1/method/token', { name: 'fuzz', description: 'fuzz cases' }), 'issue fuzz token') as { clientToken: string }).clientToken;
  const shop = await seedShop(admin, 'fuzz');
  const server: FuzzServer = {
    process: child,
    admin,
    token: await issue(),
    known: [shop.ns, 'default', ...SHOP_FLAGS, 'pro-users', 'internal', 'vips', 'everyone', 'blue', 'red', 'gold', ...Object.values(shop.variants), shop.colorRuleId, shop.thresholdRolloutId],
    async renewToken() {
      const self = await bearerClient(child.baseUrl, server.token).get('/auth/v1/self');
      if (self.status === 401) server.token = await issue();
    },
    async memory() {
      // Memory freed by a collection reaches the system over a few; the lowest of three readings is what is held.
      const readings: ServerMemory[] = [];
      for (let i = 0; i < 3; i++) readings.push(await probe(child));
      return readings.reduce((low, m) => (m.rss < low.rss ? m : low));
    },
    async state() {
      const namespaces = ok(await admin.get('/api/v1/namespaces'), 'list namespaces') as { namespaces: Array<{ key: string }> };
      const each: Record<string, unknown> = {};
      for (const { key } of namespaces.namespaces) each[key] = await namespaceState(admin, key);
      const tokens = ok(await admin.get('/auth/v1/tokens'), 'list tokens');
      const history = ok(await admin.get('/api/v1/audit/events'), 'read history');
      return { namespaces, each, tokens, history };
    },
    stop: () => child.stop(),
  };
  return server;
}
