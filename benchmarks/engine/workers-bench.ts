/**
 * `npm run bench:workers`: what `ensign evaluator --workers 2` answers per core against one
 * evaluator process, in one run. Both follow the same seeded bucket (the `bench:http` namespace);
 * rounds alternate between them under the same variant load (the idle one stopped with SIGSTOP
 * meanwhile), and each round's requests are divided by the CPU seconds of every process of that
 * evaluator (the primary and its workers, or the one process) during the load. Then the memory of
 * each process. Writes benchmarks/results/workers.json.
 */
import os from 'node:os';
import { installSafetyNets, runToExit } from '../propagation/children.js';
import { RunScope } from '../writes/run-scope.js';
import { CpuPlacement } from './cpu-placement.js';
import { evaluatorCluster, scratchDirectory } from './ensign-targets.js';
import { singleWorkload } from './http-workload.js';
import { chooseLoadGenerator, type LoadGenerator } from './load-generator.js';
import { median } from './measure-target.js';
import { cpuOfAll, memoryOf, withChildren } from './process-tree.js';
import { measureCpuShares } from '../propagation/process-cpu.js';
import { machineOf, writeResults } from './results-file.js';

const env = process.env;
const setting = (name: string, fallback: number): number => (env[name] === undefined || env[name] === '' ? fallback : Number(env[name]));
const ROUNDS = setting('BENCH_WORKERS_ROUNDS', 6);
const SECONDS = setting('BENCH_WORKERS_SECONDS', 5);
const WARMUP_SECONDS = setting('BENCH_WORKERS_WARMUP_SECONDS', 3);
const CONNECTIONS = setting('BENCH_WORKERS_CONNECTIONS', 32);

const clearTimeoutGuard = installSafetyNets(setting('BENCH_WORKERS_TIMEOUT_SECONDS', 900), 'workers benchmark');
const loadAverageBefore = os.loadavg();

interface Target {
  name: string;
  port: number;
  pids: number[];
  rounds: Array<{ requests: number; cpuSeconds: number; p99Ms: number; errors: number }>;
}

function signal(pids: readonly number[], which: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of pids) process.kill(pid, which);
}

/** One load of `seconds` on `target` with every other target stopped; the round's figures when `measured`. */
async function load(generator: LoadGenerator, target: Target, others: readonly Target[], seconds: number, measured: boolean): Promise<void> {
  for (const other of others) signal(other.pids, 'SIGSTOP');
  try {
    const before = cpuOfAll(target.pids);
    const result = await generator.run(`http://127.0.0.1:${target.port}`, singleWorkload('variant'), seconds);
    const after = cpuOfAll(target.pids);
    if (before === undefined || after === undefined) throw new Error(`${target.name}: a process is gone`);
    if (measured) target.rounds.push({ requests: result.requests, cpuSeconds: after - before, p99Ms: result.latencyP99Ms, errors: result.errors + result.non2xx });
  } finally {
    for (const other of others) signal(other.pids, 'SIGCONT');
  }
}

const perCore = (r: { requests: number; cpuSeconds: number }) => r.requests / r.cpuSeconds;
const total = (rounds: Target['rounds'], pick: (r: Target['rounds'][number]) => number) => rounds.reduce((sum, r) => sum + pick(r), 0);
const mb = (n: number | undefined) => (n === undefined ? '?' : n.toFixed(1));

async function main(): Promise<number> {
  const scope = new RunScope();
  try {
    const cluster = await evaluatorCluster(scope, new CpuPlacement(undefined, undefined));
    const one = await cluster.startEvaluator(scope);
    const two = await cluster.startEvaluator(scope, { ENSIGN_EVALUATOR_WORKERS: '2' });
    const targets: Target[] = [
      { name: '1 process', port: one.port, pids: withChildren(one.child.pid as number), rounds: [] },
      { name: '--workers 2', port: two.port, pids: withChildren(two.child.pid as number), rounds: [] },
    ];
    if (targets[1]!.pids.length !== 3) throw new Error(`--workers 2 runs ${targets[1]!.pids.length} processes, not a primary and two workers`);
    const generator = chooseLoadGenerator({ preference: 'auto', dir: scratchDirectory(scope), connections: CONNECTIONS, cpu: undefined });
    console.log(`load generator: ${generator.name}, ${CONNECTIONS} connections; ${ROUNDS} rounds of ${SECONDS} s per target after ${WARMUP_SECONDS} s of warm-up; nothing pinned`);

    for (const target of targets) await load(generator, target, targets.filter((t) => t !== target), WARMUP_SECONDS, false);
    const shares = measureCpuShares(targets.flatMap((t) => t.pids));
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in the other order, so neither always runs right after the other.
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) await load(generator, target, targets.filter((t) => t !== target), SECONDS, true);
    }
    const cpu = shares();

    const [single, workers] = targets as [Target, Target];
    const roundRatios = single.rounds.map((r, i) => perCore(workers.rounds[i]!) / perCore(r));
    console.log('\ntarget        req/s   evaluator CPU-s   req per CPU-s   p99 ms (median)');
    for (const t of targets) {
      const requests = total(t.rounds, (r) => r.requests);
      const cpuSeconds = total(t.rounds, (r) => r.cpuSeconds);
      console.log(
        `${t.name.padEnd(12)} ${Math.round(requests / (ROUNDS * SECONDS)).toString().padStart(6)}   ${cpuSeconds.toFixed(1).padStart(15)}   ${Math.round(requests / cpuSeconds).toString().padStart(13)}   ${median(t.rounds.map((r) => r.p99Ms))}`,
      );
    }
    const ratio = perCore({ requests: total(workers.rounds, (r) => r.requests), cpuSeconds: total(workers.rounds, (r) => r.cpuSeconds) }) / perCore({ requests: total(single.rounds, (r) => r.requests), cpuSeconds: total(single.rounds, (r) => r.cpuSeconds) });
    console.log(`\nper core, --workers 2 / 1 process: ${ratio.toFixed(3)} (rounds ${Math.min(...roundRatios).toFixed(3)}–${Math.max(...roundRatios).toFixed(3)}, median ${median(roundRatios).toFixed(3)}; aim ≥ 0.9)`);

    const memory = { single: memoryOf(single.pids), workers: memoryOf(workers.pids) };
    const sum = (rows: typeof memory.single, pick: 'rssMb' | 'pssMb') => rows.reduce((s, r) => s + (r[pick] ?? Number.NaN), 0);
    const [primary, ...forked] = memory.workers;
    console.log(`\nmemory after the load (MB, RSS / PSS): 1 process ${mb(memory.single[0]?.rssMb)} / ${mb(memory.single[0]?.pssMb)}; --workers 2: primary ${mb(primary?.rssMb)} / ${mb(primary?.pssMb)}, workers ${forked.map((w) => `${mb(w.rssMb)} / ${mb(w.pssMb)}`).join(', ')}`);
    const extra = { rssMb: sum(memory.workers, 'rssMb') - sum(memory.single, 'rssMb'), pssMb: sum(memory.workers, 'pssMb') - sum(memory.single, 'pssMb') };
    console.log(`--workers 2 holds ${mb(extra.rssMb)} MB RSS (${mb(extra.pssMb)} MB PSS) more than 1 process: the primary and one more worker`);
    const loadAverage = os.loadavg();
    console.log(`CPU busy during the rounds: ${cpu?.machine ?? '?'} of ${os.cpus().length} (benchmark ${cpu?.benchmark ?? '?'}, other work ${cpu?.other ?? '?'}); load average ${loadAverageBefore.map((n) => n.toFixed(2)).join(' ')} before, ${loadAverage.map((n) => n.toFixed(2)).join(' ')} after`);

    const path = writeResults('workers.json', { ...machineOf(loadAverageBefore), loadGenerator: generator.name, connections: CONNECTIONS, rounds: ROUNDS, seconds: SECONDS, cpuShares: cpu, perCoreRatio: ratio, roundRatios, targets, memory, extra });
    console.log(`written ${path}`);
    const failed = targets.filter((t) => total(t.rounds, (r) => r.errors) > 0);
    for (const t of failed) console.error(`${t.name} answered errors or non-2xx statuses; its figures are not valid`);
    return failed.length > 0 ? 1 : 0;
  } finally {
    await scope.close();
  }
}

await runToExit('workers benchmark', main, clearTimeoutGuard);
