/** GET /meta/info (Flipt's fields, the storage the UI shows) and the storage's detail in GET /health. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type SqlStore } from '@ensign/store';
import test from 'ava';
import { pino } from 'pino';
import { surfaceOf } from '../../src/auth/auth-surface.js';
import type { DeclarativeStatus } from '../../src/declarative/index.js';
import { createApp, type StorageReport } from '../../src/index.js';

let store: SqlStore;
let dir: string;
const servers: Server[] = [];
test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ensign-meta-'));
  store = await openStore({ url: `file:${join(dir, 'x.db')}` });
  await store.migrate();
});
test.after.always(async () => {
  for (const server of servers) server.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function serve(storage?: StorageReport): Promise<(path: string) => Promise<{ status: number; body: any }>> {
  const app = createApp({ store, logger: pino({ level: 'silent' }), build: { version: '1.2.3', commit: 'abc123', buildDate: '2026-11-26T00:00:00Z' }, ...(storage === undefined ? {} : { storage }) });
  const server = createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path) => {
    const res = await fetch(base + path);
    return { status: res.status, body: await res.json() };
  };
}

test('database storage: Flipt\'s fields, readOnly and metadata left out; /health as before', async (t) => {
  const get = await serve();
  const info = await get('/meta/info');
  t.is(info.status, 200);
  t.deepEqual(info.body, {
    version: '1.2.3',
    commit: 'abc123',
    buildDate: '2026-11-26T00:00:00Z',
    updateAvailable: false,
    isRelease: true,
    os: process.platform,
    arch: process.arch === 'x64' ? 'amd64' : process.arch,
    authentication: { required: false },
    storage: { type: 'database' },
    analytics: {},
    ui: { theme: 'system' },
  });
  t.deepEqual((await get('/health')).body, { status: 'SERVING' });
});

test('git storage: read-only, with the repository, ref, commit, last sync and last error; /health says the same', async (t) => {
  const status: DeclarativeStatus = {
    type: 'git',
    metadata: { repository: 'https://git.example.com/flags.git', ref: 'main', directory: 'prod' },
    revision: 'f'.repeat(40),
    lastSync: new Date('2026-11-26T10:00:00Z'),
    lastError: { message: 'features.yml: document 1: flags[0].key: bad', file: 'features.yml', path: 'flags[0].key', at: new Date('2026-11-26T10:00:30Z') },
  };
  const get = await serve({ type: 'git', readOnly: true, status: () => status });
  t.deepEqual((await get('/meta/info')).body.storage, {
    type: 'git',
    readOnly: true,
    metadata: {
      repository: 'https://git.example.com/flags.git',
      ref: 'main',
      directory: 'prod',
      commit: 'f'.repeat(40),
      lastSync: '2026-11-26T10:00:00.000Z',
      lastError: 'features.yml: document 1: flags[0].key: bad',
    },
  });
  const health = await get('/health');
  t.is(health.status, 200);
  t.deepEqual(health.body, {
    status: 'SERVING',
    storage: {
      type: 'git',
      revision: 'f'.repeat(40),
      lastSync: '2026-11-26T10:00:00.000Z',
      lastError: { message: 'features.yml: document 1: flags[0].key: bad', file: 'features.yml', path: 'flags[0].key', at: '2026-11-26T10:00:30.000Z' },
    },
  });
});

test('local storage before any error: the path and revision; /meta is behind authentication like the API', async (t) => {
  const get = await serve({ type: 'local', readOnly: true, status: () => ({ type: 'local', metadata: { path: '/srv/flags' }, revision: '0123456789abcdef', lastSync: new Date('2026-11-26T10:00:00Z') }) });
  t.deepEqual((await get('/meta/info')).body.storage, { type: 'local', readOnly: true, metadata: { path: '/srv/flags', revision: '0123456789abcdef', lastSync: '2026-11-26T10:00:00.000Z' } });
  t.deepEqual((await get('/health')).body, { status: 'SERVING', storage: { type: 'local', revision: '0123456789abcdef', lastSync: '2026-11-26T10:00:00.000Z' } });
  t.is(surfaceOf('/meta/info'), 'management');
});
