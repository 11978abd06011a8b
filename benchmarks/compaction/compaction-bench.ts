/**
 * What a compaction of a 10,000-flag namespace costs: the control plane publishing it as a hydration
 * (this process: the bus's `publishHydration` on a NATS bucket of its own, the call `BusPublisher`
 * makes for a compaction), and two evaluators taking a hydration they did not hold
 * (`evaluator-child.ts`: this build, and the previous build's way of taking it in one block); then evaluation p99 on each evaluator under HTTP load,
 * without compactions and with 20 during the run (hydrations alone, or each after the delta of its
 * change, as `BusPublisher` now sends them), in interleaved rounds.
 * Options: --flags N (10000), --compactions N (20), --rounds N (2), --seconds N (10), --connections N (32).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { openSnapshotBus } from '@ensign/bus';
import { SnapshotVersion } from '@ensign/snapshots';
import type { SnapshotFlag } from '@ensign/engine';
import { eventLoopDelays, mixedSnapshotFlags, NATS_URL, testBucket } from '@ensign/testkit';
import { autocannonGenerator } from '../engine/autocannon-load.js';
import type { LoadResult } from '../engine/load-generator.js';
import { machineOf, writeResults } from '../engine/results-file.js';
import os, { loadavg } from 'node:os';
import { summarize } from '../propagation/percentiles.js';
import { type ChildMessage, COMPILE } from './child-protocol.js';
import { variantWorkload } from './large-workload.js';

const { values } = parseArgs({
  options: {
    flags: { type: 'string', default: '10000' },
    compactions: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
  },
});
const FLAGS = Number(values.flags);
const COMPACTIONS = Number(values.compactions);
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const NS = 'large';
const MODES = ['whole', 'slices'] as const;
type Mode = (typeof MODES)[number];

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

type Entry = Extract<ChildMessage, { kind: 'entry' }>;

interface Child {
  mode: Mode;
  port: number;
  entries: Entry[];
  waiters: Array<() => void>;
  kill(): void;
}

function startChild(mode: Mode, bucket: string, objectStore: string): Promise<Child> {
  const proc = fork(fileURLToPath(new URL('./evaluator-child.js', import.meta.url)), [mode, bucket, objectStore], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    const child: Child = { mode, port: 0, entries: [], waiters: [], kill: () => proc.kill('SIGKILL') };
    proc.on('message', (message: ChildMessage) => {
      if (message.kind === 'ready') {
        child.port = message.port;
        resolve(child);
      } else {
        child.entries.push(message);
        for (const wake of child.waiters.splice(0)) wake();
      }
    });
    proc.once('exit', (code) => reject(new Error(`evaluator ${mode} exited with ${code}`)));
  });
}

/** Resolves once `child` has handled the hydration of `revision`: what it and a delta of that revision cost, summed. */
async function taken(child: Child, revision: number): Promise<Entry> {
  for (;;) {
    const hydration = child.entries.find((e) => e.revision === revision && e.entry === 'hydration');
    if (hydration !== undefined) {
      const delta = child.entries.find((e) => e.revision === revision && e.entry === 'delta');
      if (delta === undefined) return hydration;
      return {
        ...hydration,
        cpuMs: hydration.cpuMs + delta.cpuMs,
        decodeCpuMs: hydration.decodeCpuMs + delta.decodeCpuMs,
        maxDelayMs: Math.max(hydration.maxDelayMs, delta.maxDelayMs),
        blockCpuMs: Math.max(hydration.blockCpuMs, delta.blockCpuMs),
      };
    }
    await new Promise<void>((resolve) => child.waiters.push(resolve));
  }
}

/** One flag of the namespace changed, as a write would. */
const edited = (flag: SnapshotFlag, n: number): SnapshotFlag => ({ ...flag, enabled: !flag.enabled, updatedAt: new Date(Date.UTC(2026, 1, 1, 0, 0, n)).toISOString() });

const loadBefore = loadavg();
const bucket = testBucket('ensign_bench');
const dir = mkdtempSync(join(tmpdir(), 'ensign-compaction-'));
const children: Child[] = [];
try {
  const bus = openSnapshotBus({ url: NATS_URL, bucket: bucket.bucket, objectStore: bucket.objectStore });
  const flags = mixedSnapshotFlags(FLAGS);
  let version = SnapshotVersion.build(NS, 1, flags, COMPILE);
  await bus.publishHydration(version.snapshot);
  for (const mode of MODES) children.push(await startChild(mode, bucket.bucket, bucket.objectStore));
  await Promise.all(children.map((c) => taken(c, 1)));

  /** One compaction: a flag changed, the namespace published whole; the control plane's CPU and longest delay. */
  let edits = 0;
  const compact = async (deltaFirst = false): Promise<{ revision: number; cpuMs: number; maxDelayMs: number; blockCpuMs: number }> => {
    const flag = flags[(edits * 97) % flags.length] as SnapshotFlag;
    const base = version.revision;
    version = version.next(base + 1, [edited(flag, ++edits)], []);
    let cpu = 0;
    const delays = await eventLoopDelays(1, async () => {
      const start = cpuMs();
      if (deltaFirst) await bus.publishDelta(version.deltaFrom(base, [flag.key]));
      await bus.publishHydration(version.snapshot);
      cpu = cpuMs() - start;
    });
    return { revision: version.revision, cpuMs: cpu, maxDelayMs: delays.maxDelayMs, blockCpuMs: delays.longestBlockCpuMs ?? NaN };
  };

  // Phase 1: compactions one at a time, with nothing else running; every evaluator takes each. First
  // hydrations alone (an evaluator that did not hold them decodes them), then, as `BusPublisher`
  // sends a compaction whose changes it knows, the delta first and then the hydration.
  const cpuOf = (rows: Array<{ cpuMs: number }>) => summarize(rows.map((r) => r.cpuMs));
  const delayOf = (rows: Array<{ maxDelayMs: number }>) => summarize(rows.map((r) => r.maxDelayMs));
  const blockOf = (rows: Array<{ blockCpuMs: number }>) => summarize(rows.map((r) => r.blockCpuMs));
  const idle: Record<string, unknown> = {};
  for (const deltaFirst of [false, true]) {
    const kind = deltaFirst ? 'deltaFirst' : 'hydrationOnly';
    console.log(`${COMPACTIONS} compactions of ${FLAGS.toLocaleString('en-US')} flags, one at a time (${kind})`);
    const controlPlane: Array<{ cpuMs: number; maxDelayMs: number; blockCpuMs: number }> = [];
    const evaluators: Record<Mode, Entry[]> = { whole: [], slices: [] };
    for (let i = 0; i < COMPACTIONS; i++) {
      const c = await compact(deltaFirst);
      controlPlane.push(c);
      for (const child of children) evaluators[child.mode].push(await taken(child, c.revision));
    }
    idle[kind] = {
      controlPlane: { cpuMs: cpuOf(controlPlane), maxDelayMs: delayOf(controlPlane), blockCpuMs: blockOf(controlPlane) },
      ...Object.fromEntries(MODES.map((mode) => [mode, {
        cpuMs: cpuOf(evaluators[mode]),
        decodeCpuMs: summarize(evaluators[mode].map((h) => h.decodeCpuMs)),
        maxDelayMs: delayOf(evaluators[mode]),
        blockCpuMs: blockOf(evaluators[mode]),
      }])),
    };
    console.log(JSON.stringify(idle[kind]));
  }

  // Phase 2: each evaluator under load, rounds with and without compactions interleaved.
  const generator = autocannonGenerator({ preference: 'autocannon', dir, connections: Number(values.connections), cpu: undefined });
  const workload = variantWorkload(NS, flags);
  const KINDS = ['none', 'hydrationOnly', 'deltaFirst'] as const;
  type LoadKind = (typeof KINDS)[number];
  const load: Array<{ mode: Mode; compactions: LoadKind; round: number; result: LoadResult }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) {
      const child = children.find((c) => c.mode === mode) as Child;
      for (const kind of round % 2 === 0 ? KINDS : [...KINDS].reverse()) {
        const run = generator.run(`http://127.0.0.1:${child.port}`, workload, SECONDS);
        if (kind !== 'none') {
          // Spread over the run, after a second of warm-up.
          const gap = ((SECONDS - 2) * 1000) / COMPACTIONS;
          await new Promise((resolve) => setTimeout(resolve, 1000));
          for (let i = 0; i < COMPACTIONS; i++) {
            const started = performance.now();
            await compact(kind === 'deltaFirst');
            await new Promise((resolve) => setTimeout(resolve, Math.max(0, gap - (performance.now() - started))));
          }
        }
        const result = await run;
        load.push({ mode, compactions: kind, round, result });
        console.log(`${mode}, compactions ${kind}, round ${round + 1}: ${Math.round(result.requests / result.durationSeconds)} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, errors ${result.errors}, non-2xx ${result.non2xx}`);
      }
    }
  }
  const p99 = (mode: Mode, kind: LoadKind): number[] => load.filter((l) => l.mode === mode && l.compactions === kind).map((l) => l.result.latencyP99Ms);
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const ratio = (mode: Mode, kind: LoadKind): number => Math.round((mean(p99(mode, kind)) / mean(p99(mode, 'none'))) * 100) / 100;
  const ratios = Object.fromEntries(MODES.map((mode) => [mode, { hydrationOnly: ratio(mode, 'hydrationOnly'), deltaFirst: ratio(mode, 'deltaFirst') }]));
  console.log(`p99 with / without compactions: ${JSON.stringify(ratios)}`);
  const machine = machineOf(loadBefore);
  console.log(`load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  writeResults('compaction.json', { machine, options: values, flags: FLAGS, idle, load, ratios });
} finally {
  for (const child of children) child.kill();
  rmSync(dir, { recursive: true, force: true });
  await bucket.drop();
}
process.exit(0);
