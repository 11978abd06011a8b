/**
 * The Redis read cache end to end: two `ensign server` processes on one PostgreSQL database and
 * one Redis of the test's own. A write through one is seen by a cached read through the other at
 * once; with Redis stopped both keep answering from the database; with Redis back (restarted from
 * a dump taken before the outage) nothing cached before the outage is served.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import test from 'ava';
import { createTestDatabase, type EnsignProcess, eventually, freePort, type JsonClient, jsonClient, scratchDir, startEnsign } from '@ensign/testkit';
import { ok } from '../helpers/api.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A `redis-server` child of this test, with its dump file in `dir`. */
class TestRedis {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (loading the dump when there is one) and resolves once it accepts connections. */
  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', this.dir];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    for (let i = 0; i < 200 && !output.includes('Ready to accept connections'); i++) {
      if (child.exitCode !== null) throw new Error(`redis-server exited: ${output}`);
      await delay(50);
    }
    if (!output.includes('Ready to accept connections')) throw new Error(`redis-server did not start: ${output}`);
  }

  /** Kills it at once, as a crash would. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Sends one inline command and resolves its first reply line. */
  command(text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, '127.0.0.1', () => socket.write(`${text}\r\n`));
      let reply = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        reply += chunk;
        if (reply.includes('\r\n')) {
          socket.end();
          resolve(reply.split('\r\n')[0] ?? '');
        }
      });
      socket.on('error', reject);
    });
  }
}

/** `flipt_cache_<kind>_total{cache="redis"}` of a server's /metrics. */
async function counter(api: JsonClient, kind: 'hit' | 'miss' | 'error'): Promise<number> {
  const res = await api.get('/metrics');
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const match = new RegExp(`^flipt_cache_${kind}_total\\{cache="redis"\\} (\\d+)$`, 'm').exec(res.text);
  return match ? Number(match[1]) : 0;
}

/** Reads `path` through `api`; resolves whether the read was a cache hit. */
async function readIsHit(api: JsonClient, path: string): Promise<boolean> {
  const before = await counter(api, 'hit');
  ok(await api.get(path));
  return (await counter(api, 'hit')) > before;
}

const servers: EnsignProcess[] = [];
let redis: TestRedis | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

test.after.always(async (t) => {
  try {
    for (const server of servers) t.is(await server.stop(), 0, server.logs());
  } finally {
    await redis?.kill();
    await dropDatabase?.();
  }
});

test('a write through one control plane is read through the other at once; Redis going away and coming back changes no answer', async (t) => {
  redis = new TestRedis(await freePort(), scratchDir('ensign-redis-'));
  await redis.start();
  const database = await createTestDatabase('postgres');
  dropDatabase = () => database.drop();
  const env = {
    ENSIGN_DB_URL: database.url,
    ENSIGN_LOG_LEVEL: 'warn',
    ENSIGN_CACHE_ENABLED: 'true',
    ENSIGN_CACHE_BACKEND: 'redis',
    ENSIGN_CACHE_REDIS_URL: redis.url,
    // Long enough that only an invalidation can explain a fresh read.
    ENSIGN_CACHE_TTL: '10m',
  };
  // One after the other: the first one migrates the empty database.
  const first = await startEnsign({ env });
  servers.push(first);
  const second = await startEnsign({ env });
  servers.push(second);
  const cp1 = jsonClient(first.baseUrl);
  const cp2 = jsonClient(second.baseUrl);

  ok(await cp1.post('/api/v1/namespaces', { key: 'shop', name: 'Shop' }));
  const path = '/api/v1/namespaces/shop/flags/color';
  ok(await cp1.post('/api/v1/namespaces/shop/flags', { key: 'color', name: 'First' }));
  const rename = async (api: JsonClient, name: string) => ok(await api.put(path, { key: 'color', name }));
  const nameVia = async (api: JsonClient) => ok(await api.get(path)).name as string;

  // Each server's revision poll evicts a namespace's entries once when it finds a revision written
  // elsewhere: the entries below are cached after cp2 has found cp1's writes, as a reader would be.
  const revisionOf = async (api: JsonClient): Promise<number> => ok(await api.get('/internal/v1/evaluation/snapshot/namespace/shop?format=ensign')).revision as number;
  const caughtUp = async (): Promise<boolean> => (await revisionOf(cp2)) === (await revisionOf(cp1));
  t.true(await eventually(caughtUp), 'cp2 holds what cp1 wrote');

  // Through the second control plane the flag is cached (a hit on the second read).
  t.is(await nameVia(cp2), 'First');
  t.true(await readIsHit(cp2, path), 'the second read through cp2 comes from the cache');
  t.true(await readIsHit(cp1, path), 'the entry is shared with cp1');

  // A write through the first control plane is seen through the second at once.
  await rename(cp1, 'Second');
  t.is(await nameVia(cp2), 'Second');
  t.true(await eventually(caughtUp));
  await nameVia(cp2);
  t.true(await readIsHit(cp2, path));
  ok(await cp1.post('/api/v1/namespaces', { key: 'office', name: 'Office' }));
  t.true(ok(await cp2.get('/api/v1/namespaces')).namespaces.some((n: { key: string }) => n.key === 'office'), 'namespace lists too');

  // A dump holding the cached 'Second', so the restarted Redis comes back with it.
  t.is(await redis.command('SAVE'), '+OK');
  await redis.kill();

  // Redis away: reads and writes through both still answer, from and to the database.
  t.is(await nameVia(cp2), 'Second');
  await rename(cp1, 'Third');
  t.is(await nameVia(cp2), 'Third');
  t.is(await nameVia(cp1), 'Third');
  await rename(cp2, 'Fourth');
  t.is(await nameVia(cp1), 'Fourth');
  t.is(await nameVia(cp2), 'Fourth');
  t.true(ok(await cp2.get('/api/v1/namespaces/shop/flags')).flags.some((f: { name: string }) => f.name === 'Fourth'));
  t.true((await counter(cp2, 'error')) > 0, 'the failures are counted');
  for (const server of [first, second]) {
    t.true(await eventually(async () => server.logs().includes('Redis is unavailable')), 'a warning is logged');
    t.is(server.logs().split('\n').filter((line) => line.includes('Redis is unavailable')).length, 1, 'once per outage');
  }

  // Redis back, with the dump's stale 'Second' in it: never served.
  await redis.start();
  t.is(await nameVia(cp2), 'Fourth');
  t.true(await eventually(() => readIsHit(cp2, path)), 'cp2 serves from the cache again');
  // A write through a control plane not yet reconnected reaches the other's cached reads through the
  // revision poll (within db.poll_interval), not at once: "at once" is asked of both connected again.
  t.true(await eventually(() => readIsHit(cp1, path)), 'cp1 serves from the cache again');
  t.is(await nameVia(cp2), 'Fourth');
  t.is(await nameVia(cp1), 'Fourth');
  await rename(cp1, 'Fifth');
  t.is(await nameVia(cp2), 'Fifth');
  t.true(await readIsHit(cp2, path));
});
