/**
 * What change requests cost on `ensign server` over SQLite (127.0.0.1):
 *
 * (a) the apply of a 100-change request (50 flag creates, 50 flag updates), made, submitted and
 *     approved beforehand, timed per round (the median of BENCH_CR_ROUNDS, 7, after one warm-up);
 * (b) a promotion preview of a 1,000-flag namespace (BENCH_CR_FLAGS; each flag with two variants
 *     and a rule split 50/50 over them, imported through the import route) into an empty one:
 *     `POST /api/v1/namespaces/prod/change-requests?dryRun=true` with `{"promoteFrom": "staging"}`,
 *     the median of BENCH_CR_PREVIEW_ROUNDS (5). Where the server does not serve that yet, the two
 *     halves it is made of: `promotionChanges` over the same database file in this process, and the
 *     trial of its changes through `POST .../change-requests` (in requests of at most the server's
 *     limit when it refuses them all at once).
 *
 * Stops by itself: at most BENCH_CR_TIMEOUT_SECONDS (600) in all.
 * Run: `npm run bench:change-requests`; writes results/change-requests.json.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ProposedChange } from '@ensign/core';
import { openStore, type SqlStore } from '@ensign/store';
import { startEnsign } from '@ensign/testkit';
import { machineOf, writeResults } from '../engine/results-file.js';
import { installSafetyNets, onCleanup, runToExit } from '../propagation/children.js';
import { KeepAliveClient } from '../propagation/keep-alive-client.js';
import { createBenchDatabase } from '../writes/bench-database.js';

const int = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const ROUNDS = int('BENCH_CR_ROUNDS', 7);
const PREVIEW_ROUNDS = int('BENCH_CR_PREVIEW_ROUNDS', 5);
const FLAGS = int('BENCH_CR_FLAGS', 1000);
const TIMEOUT_SECONDS = int('BENCH_CR_TIMEOUT_SECONDS', 600);
const CHANGES = 100;

const clearTimeoutGuard = installSafetyNets(TIMEOUT_SECONDS, 'change-request benchmark');

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => Math.round(value * 10) / 10;
const stats = (values: readonly number[]) => ({ medianMs: ms(median(values)), minMs: ms(Math.min(...values)), maxMs: ms(Math.max(...values)), rounds: values.length });

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

/** Imports a Flipt document (JSON) into `ns`, creating it. */
async function importDocument(api: KeepAliveClient, ns: string, doc: unknown): Promise<void> {
  await api.json('POST', `/api/v1/namespaces/${ns}/import`, doc);
}

/** A request of `changes` in `ns`, made (tried), submitted and approved; its id. */
async function approvedRequest(api: KeepAliveClient, ns: string, changes: ProposedChange[]): Promise<[string, number]> {
  const base = `/api/v1/namespaces/${ns}/change-requests`;
  const [made, createMs] = await timed(() => api.json('POST', base, { title: 'bench', changes }));
  const id = made['id'] as string;
  await api.json('POST', `${base}/${id}/submit`, {});
  const approved = await api.json('POST', `${base}/${id}/approvals`, { digest: made['digest'] });
  if (approved['state'] !== 'approved') throw new Error(`request ${id} not approved: ${JSON.stringify(approved)}`);
  return [id, createMs];
}

/** (a): per round, 50 new flags and 50 updates of flags seeded beforehand, applied as one request. */
async function applyRounds(api: KeepAliveClient): Promise<Record<string, unknown>> {
  const ns = 'apply';
  const half = CHANGES / 2;
  const rounds = ROUNDS + 1;
  const seeded = Array.from({ length: rounds * half }, (_, i) => ({ key: `old-${i}`, name: `Old ${i}`, type: 'BOOLEAN_FLAG_TYPE', enabled: false }));
  await importDocument(api, ns, { version: '1.4', namespace: { key: ns, name: 'Apply' }, flags: seeded });
  const applyMs: number[] = [];
  const createMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const path = `/api/v1/namespaces/${ns}/flags`;
    const changes: ProposedChange[] = [];
    for (let j = 0; j < half; j++) {
      changes.push({ method: 'POST', path, body: { key: `new-${round}-${j}`, name: `New ${round} ${j}`, type: 'BOOLEAN_FLAG_TYPE', enabled: true } });
      const old = round * half + j;
      changes.push({ method: 'PUT', path: `${path}/old-${old}`, body: { name: `Old ${old}`, description: `round ${round}`, enabled: true } });
    }
    const [id, tried] = await approvedRequest(api, ns, changes);
    const [applied, took] = await timed(() => api.json('POST', `/api/v1/namespaces/${ns}/change-requests/${id}/apply`, {}));
    if (applied['state'] !== 'applied') throw new Error(`request ${id} not applied: ${JSON.stringify(applied)}`);
    // The first round warms the server up.
    if (round === 0) continue;
    applyMs.push(took);
    createMs.push(tried);
  }
  return { changes: CHANGES, apply: stats(applyMs), createWithTrial: stats(createMs) };
}

/** The document of `FLAGS` variant flags, each with two variants and a rule on `everyone` split 50/50. */
function stagingDocument(): unknown {
  return {
    version: '1.4',
    namespace: { key: 'staging', name: 'Staging' },
    flags: Array.from({ length: FLAGS }, (_, i) => ({
      key: `flag-${String(i).padStart(5, '0')}`,
      name: `Flag ${i}`,
      type: 'VARIANT_FLAG_TYPE',
      enabled: true,
      variants: [
        { key: 'on', name: 'On' },
        { key: 'off', name: 'Off' },
      ],
      rules: [{ segment: 'everyone', distributions: [{ variant: 'on', rollout: 50 }, { variant: 'off', rollout: 50 }] }],
    })),
    segments: [{ key: 'everyone', name: 'Everyone', match_type: 'ANY_MATCH_TYPE' }],
  };
}

type PromotionChanges = (reader: Pick<SqlStore, 'readNamespaceState'>, target: string, request: { from: string }) => Promise<ProposedChange[]>;

/** The control plane's planner, loaded from its compiled file: the package exports only its index. */
async function loadPlanner(): Promise<PromotionChanges> {
  const file = new URL('../../../packages/control-plane/dist/src/change-requests/promotion.js', import.meta.url);
  return ((await import(file.href)) as { promotionChanges: PromotionChanges }).promotionChanges;
}

/** (b): the promotion preview of `FLAGS` flags into an empty namespace. */
async function previewRounds(api: KeepAliveClient, dbUrl: string): Promise<Record<string, unknown>> {
  await importDocument(api, 'staging', stagingDocument());
  await api.json('POST', '/api/v1/namespaces', { key: 'prod', name: 'Production' });
  const path = '/api/v1/namespaces/prod/change-requests';
  const probe = await api.send('POST', `${path}?dryRun=true`, { promoteFrom: 'staging' });
  if (probe.status === 200) {
    const preview = JSON.parse(probe.text) as { changes: unknown[]; diff: unknown[] };
    const times: number[] = [];
    for (let round = 0; round < PREVIEW_ROUNDS; round++) {
      const [reply, took] = await timed(() => api.send('POST', `${path}?dryRun=true`, { promoteFrom: 'staging' }));
      if (reply.status !== 200) throw new Error(`preview → ${reply.status} ${reply.text.slice(0, 500)}`);
      times.push(took);
    }
    return { flags: FLAGS, served: 'dryRun', changes: preview.changes.length, diffRecords: preview.diff.length, answerBytes: probe.text.length, preview: stats(times) };
  }

  // Not served yet: the planning in this process on the same file, then the trial through the API.
  const promotionChanges = await loadPlanner();
  const store = await openStore({ url: dbUrl });
  onCleanup(() => store.close());
  const planMs: number[] = [];
  let changes: ProposedChange[] = [];
  for (let round = 0; round < PREVIEW_ROUNDS; round++) {
    const [planned, took] = await timed(() => promotionChanges(store, 'prod', { from: 'staging' }));
    changes = planned;
    planMs.push(took);
  }
  const whole = await api.send('POST', path, { title: 'promotion', changes });
  let limit: number | undefined;
  if (whole.status !== 200) {
    const match = /at most (\d+) changes/.exec(whole.text);
    if (match === null) throw new Error(`trial of ${changes.length} changes → ${whole.status} ${whole.text.slice(0, 500)}`);
    limit = Number(match[1]);
  }
  const trialMs: number[] = [];
  for (let round = 0; round < PREVIEW_ROUNDS; round++) {
    let total = 0;
    // Each flag's calls are contiguous and the segment comes first, so cutting on a flag create keeps every chunk valid.
    for (const chunk of chunksOf(changes, limit ?? changes.length)) {
      const [reply, took] = await timed(() => api.send('POST', path, { title: 'promotion', changes: chunk }));
      if (reply.status !== 200) throw new Error(`trial → ${reply.status} ${reply.text.slice(0, 500)}`);
      total += took;
    }
    trialMs.push(total);
  }
  return {
    flags: FLAGS,
    served: 'promotionChanges in process, then POST change-requests (the trial, and the draft stored)',
    changes: changes.length,
    serverLimit: limit ?? null,
    bodyBytes: JSON.stringify({ title: 'promotion', changes }).length,
    plan: stats(planMs),
    trial: stats(trialMs),
  };
}

/** Consecutive runs of at most `size` changes, each starting at a flag create or the list's start. */
function chunksOf(changes: readonly ProposedChange[], size: number): ProposedChange[][] {
  const out: ProposedChange[][] = [];
  let current: ProposedChange[] = [];
  let pending: ProposedChange[] = [];
  const isFlagCreate = (c: ProposedChange) => c.method === 'POST' && /\/flags$/.test(c.path);
  for (const change of changes) {
    if (isFlagCreate(change)) {
      if (current.length + pending.length > size) {
        out.push(current);
        current = [];
      }
      current.push(...pending);
      pending = [];
    }
    pending.push(change);
  }
  if (current.length + pending.length > size) {
    out.push(current);
    current = [];
  }
  current.push(...pending);
  if (current.length > 0) out.push(current);
  return out.filter((c) => c.length > 0);
}

async function main(): Promise<number> {
  const loadAverage = os.loadavg();
  const database = await createBenchDatabase('sqlite');
  onCleanup(() => database.drop());
  const server = await startEnsign({ env: { ENSIGN_DB_URL: database.url, ENSIGN_SERVER_BODY_LIMIT: String(64 * 1048576), ENSIGN_LOG_LEVEL: 'warn' } });
  onCleanup(() => server.stop());
  const api = new KeepAliveClient(server.port);

  console.log(`(a) ${CHANGES}-change apply, ${ROUNDS} rounds after a warm-up…`);
  const apply = await applyRounds(api);
  console.log(`(b) promotion preview of ${FLAGS.toLocaleString('en-US')} flags, ${PREVIEW_ROUNDS} rounds…`);
  const preview = await previewRounds(api, database.url);

  const figures = { apply, preview };
  console.log(JSON.stringify(figures, null, 2));
  const path = writeResults('change-requests.json', { date: new Date().toISOString(), machine: machineOf(loadAverage), figures });
  console.log(`\nwritten ${path}`);
  return 0;
}

void runToExit('change-request benchmark', main, clearTimeoutGuard);
