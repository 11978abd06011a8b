/**
 * What change requests cost on `ensign server` over SQLite (127.0.0.1):
 *
 * (a) the apply of a 100-change request (50 flag creates, 50 flag updates), made, submitted and
 *     approved beforehand, timed per round (the median of BENCH_CR_ROUNDS, 7, after one warm-up);
 * (b) a promotion preview of a 1,000-flag namespace (BENCH_CR_FLAGS; each flag with two variants
 *     and a rule split 50/50 over them, imported through the import route) into an empty one:
 *     `POST /api/v1/namespaces/prod/change-requests?dryRun=true` with `{"promoteFrom": "staging"}`,
 *     the median of BENCH_CR_PREVIEW_ROUNDS (5): the changes planned, then tried (run and rolled back).
 *
 * Stops by itself: at most BENCH_CR_TIMEOUT_SECONDS (600) in all.
 * Run: `npm run bench:change-requests`; writes results/change-requests.json.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ProposedChange } from '@ensign/core';
import { startEnsign } from '@ensign/testkit';
import { machineOf, writeResults } from '../engine/results-file.js';
import { installSafetyNets, onCleanup, runToExit } from '../propagation/children.js';
import { KeepAliveClient } from '../propagation/keep-alive-client.js';
import { splitFlagsDocument } from '../import/flags-document.js';
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

/** (b): the promotion preview of `FLAGS` flags into an empty namespace, `?dryRun=true`: the changes planned, tried and rolled back. */
async function previewRounds(api: KeepAliveClient): Promise<Record<string, unknown>> {
  await importDocument(api, 'staging', splitFlagsDocument({ key: 'staging', name: 'Staging' }, FLAGS));
  await api.json('POST', '/api/v1/namespaces', { key: 'prod', name: 'Production' });
  const path = '/api/v1/namespaces/prod/change-requests?dryRun=true';
  const probe = await api.send('POST', path, { promoteFrom: 'staging' });
  if (probe.status !== 200) throw new Error(`preview → ${probe.status} ${probe.text.slice(0, 500)}`);
  const preview = JSON.parse(probe.text) as { changes: unknown[]; diff: unknown[] };
  const times: number[] = [];
  for (let round = 0; round < PREVIEW_ROUNDS; round++) {
    const [reply, took] = await timed(() => api.send('POST', path, { promoteFrom: 'staging' }));
    if (reply.status !== 200) throw new Error(`preview → ${reply.status} ${reply.text.slice(0, 500)}`);
    times.push(took);
  }
  return { flags: FLAGS, changes: preview.changes.length, diffRecords: preview.diff.length, answerBytes: probe.text.length, preview: stats(times) };
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
  const preview = await previewRounds(api);

  const figures = { apply, preview };
  console.log(JSON.stringify(figures, null, 2));
  const path = writeResults('change-requests.json', { date: new Date().toISOString(), machine: machineOf(loadAverage), figures });
  console.log(`\nwritten ${path}`);
  return 0;
}

void runToExit('change-request benchmark', main, clearTimeoutGuard);
