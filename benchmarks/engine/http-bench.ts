/**
 * The evaluation path against the bare-Node ceiling, in one run. Every target is a process of its
 * own (an ensign one seeded with the benchmark namespace and checked against the engine), all started
 * first and then measured in rounds, each round loading every target in turn from a separate process
 * (wrk, or autocannon where wrk is missing; a grpc-js client for gRPC): bare node:http (the
 * fixed-body ceiling, and the JSON floors of one evaluation and of a batch, which each ensign HTTP
 * target is also held against); `ensign server` variant, boolean, batch of 50 and gRPC Variant;
 * `ensign server` with a bearer token and with a JWT required; `ensign evaluator` variant and
 * boolean. Then the memory of an evaluator holding a 10,000-flag namespace. Run: `npm run
 * bench:http` (writes benchmarks/results/http.json); the BENCH_HTTP_* settings are in
 * http-options.ts.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { installSafetyNets, runToExit } from '../propagation/children.js';
import { RunScope } from '../writes/run-scope.js';
import { bearerCredential, type Credential, jwtCredential } from './auth-credentials.js';
import { type BareMode, bareServer } from './bare-target.js';
import { CpuPlacement } from './cpu-placement.js';
import { evaluatorCluster, scratchDirectory, seededServer } from './ensign-targets.js';
import { targetRatios, batchFigures, type Floors, ratiosTo, printBatch, printCounting, printLargeNamespace, printTargets } from './http-report.js';
import { HTTP_OPTIONS } from './http-options.js';
import { BATCH_SIZE, batchWorkload, type HttpWorkload, ofrepWorkload, singleWorkload } from './http-workload.js';
import { measureLargeNamespace, type LargeNamespaceFigures } from './large-namespace-memory.js';
import { chooseLoadGenerator, type LoadGenerator, type LoadResult } from './load-generator.js';
import { runLoadProcess } from './load-process.js';
import { combineRounds, measureRound, type RoundFigures, type TargetFigures, type TargetRun } from './measure-target.js';
import { machineOf, writeResults } from './results-file.js';

const GRPC_CLIENT = fileURLToPath(new URL('./grpc-load-client.js', import.meta.url));
const { seconds, warmupSeconds, connections } = HTTP_OPTIONS;

const clearTimeoutGuard = installSafetyNets(HTTP_OPTIONS.timeoutSeconds, 'HTTP benchmark');
const loadAverageBefore = os.loadavg();
const placement = new CpuPlacement(HTTP_OPTIONS.serverCpu, HTTP_OPTIONS.clientCpu);

/** Sends `signal` to every process still there. */
function signalAll(pids: ReadonlyArray<number | undefined>, signal: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of pids) {
    if (pid === undefined) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already: its figures say so.
    }
  }
}

/** Runs `work` with a scope whose processes and files are gone when it returns. */
async function scoped<T>(work: (scope: RunScope) => Promise<T>): Promise<T> {
  const scope = new RunScope();
  try {
    return await work(scope);
  } finally {
    await scope.close();
  }
}

async function grpcLoad(address: string, loadSeconds: number): Promise<LoadResult> {
  const out = await runLoadProcess(process.execPath, [GRPC_CLIENT, address, String(loadSeconds), String(connections)], {
    cpu: placement.clientCpu,
    timeoutMs: (loadSeconds + 30) * 1000,
  });
  return JSON.parse(out) as LoadResult;
}

/** What the targets measured: every figure, bare's, the batch's, and the JSON floor each ensign HTTP target is held against. */
interface MeasuredTargets {
  targets: TargetFigures[];
  bare: TargetFigures;
  batches: TargetFigures[];
  batchFloor: TargetFigures;
  floors: Floors;
  /** The evaluator with and without counting evaluations for /metrics, when both ran. */
  counting?: { counted: TargetFigures; uncounted: TargetFigures };
}

/** The targets, started and ready for load, in the order they are measured in each round. */
interface StartedTargets {
  runs: TargetRun[];
  bare: TargetRun;
  batchFloor: TargetRun;
  /** The batch targets (server, evaluator) that ran. */
  batches: TargetRun[];
  /** The floor each ensign HTTP target is held against. */
  floorOf: Map<TargetRun, TargetRun>;
  counted?: TargetRun;
  uncounted?: TargetRun;
}

/** Whether BENCH_HTTP_TARGETS asks for the target `name`. */
const wanted = (name: string) => HTTP_OPTIONS.targets.length === 0 || HTTP_OPTIONS.targets.some((part) => name.includes(part));

/** Starts every wanted target within `scope`: each a process of its own, ensign ones seeded and checked. */
async function startTargets(scope: RunScope, generator: LoadGenerator): Promise<StartedTargets> {
  const variant = singleWorkload('variant');
  const boolean = singleWorkload('boolean');
  const batchOf50 = batchWorkload();
  const runs: TargetRun[] = [];
  const floorOf = new Map<TargetRun, TargetRun>();
  const http = (port: number, workload: HttpWorkload) => (s: number) => generator.run(`http://127.0.0.1:${port}`, workload, s);
  const add = (target: string, pid: number | undefined, load: TargetRun['load'], evaluationsPerRequest = 1, floor?: TargetRun): TargetRun => {
    const run: TargetRun = { target, pid, load, evaluationsPerRequest };
    runs.push(run);
    if (floor !== undefined) floorOf.set(run, floor);
    return run;
  };
  const onBare = async (name: string, mode: BareMode, workload: HttpWorkload) => {
    const server = await bareServer(scope, placement, mode);
    return add(name, server.pid, http(server.port, workload), workload.evaluationsPerRequest);
  };
  /** A seeded `ensign server` loaded with `workload`; `credentialOf` makes it require the credential it returns. */
  const onServer = async (name: string, floor: TargetRun, workload: (authorization?: string) => HttpWorkload, credentialOf?: (dir: string) => Credential | Promise<Credential>) => {
    if (!wanted(name)) return undefined;
    const credential = await credentialOf?.(scratchDirectory(scope));
    const server = await seededServer(scope, placement, credential);
    const requests = workload(credential?.authorization);
    return add(name, server.child.pid, http(server.port, requests), requests.evaluationsPerRequest, floor);
  };
  /**
   * Evaluators of one cluster (whose server is seeded only when one of them is wanted), each loaded
   * with its workload; with `credentialOf`, the cluster requires the credential it returns. The
   * answer is in the order of `targets`, a target not wanted undefined.
   */
  const onEvaluators = async (targets: Array<{ name: string; floor: TargetRun; workload: (authorization?: string) => HttpWorkload; env?: Record<string, string> }>, credentialOf?: (dir: string) => Credential | Promise<Credential>) => {
    if (!targets.some((t) => wanted(t.name))) return [];
    const credential = await credentialOf?.(scratchDirectory(scope));
    const { startEvaluator } = await evaluatorCluster(scope, placement, credential);
    const started: Array<TargetRun | undefined> = [];
    for (const t of targets) {
      if (!wanted(t.name)) {
        started.push(undefined);
        continue;
      }
      const evaluator = await startEvaluator(scope, t.env);
      const requests = t.workload(credential?.authorization);
      started.push(add(t.name, evaluator.child.pid, http(evaluator.port, requests), requests.evaluationsPerRequest, t.floor));
    }
    return started;
  };

  // The bare servers read the bodies of the loads they stand for, so they see requests of the same sizes.
  const bare = await onBare('bare node:http (fixed body)', 'fixed', variant);
  const jsonFloor = await onBare('bare node:http, JSON in and out', 'json', variant);
  const batchFloor = await onBare(`bare node:http, batch of ${BATCH_SIZE} JSON in and out`, 'batch', batchOf50);
  const batches: TargetRun[] = [];
  await onServer('ensign server, variant', jsonFloor, () => variant);
  await onServer('ensign server, boolean', jsonFloor, () => boolean);
  const serverBatch = await onServer(`ensign server, batch of ${BATCH_SIZE} variant`, batchFloor, () => batchOf50);
  if (serverBatch !== undefined) batches.push(serverBatch);
  await onServer('ensign server, OFREP single', jsonFloor, (auth) => ofrepWorkload(auth));
  if (wanted('ensign server, gRPC Variant')) {
    const grpcServer = await seededServer(scope, placement);
    add('ensign server, gRPC Variant', grpcServer.child.pid, (s) => grpcLoad(`127.0.0.1:${grpcServer.grpcPort}`, s));
  }
  await onServer('ensign server, variant, bearer token', jsonFloor, (auth) => singleWorkload('variant', auth), bearerCredential);
  await onServer('ensign server, variant, JWT (RS256)', jsonFloor, (auth) => singleWorkload('variant', auth), jwtCredential);
  const [counted, , evaluatorBatch, , uncounted] = await onEvaluators([
    { name: 'ensign evaluator, variant', floor: jsonFloor, workload: () => variant },
    { name: 'ensign evaluator, boolean', floor: jsonFloor, workload: () => boolean },
    { name: `ensign evaluator, batch of ${BATCH_SIZE} variant`, floor: batchFloor, workload: () => batchOf50 },
    { name: 'ensign evaluator, OFREP single', floor: jsonFloor, workload: () => ofrepWorkload() },
    // The same evaluator without Flipt's evaluation metrics: what counting costs the hot path.
    { name: 'ensign evaluator, variant, metrics and analytics off', floor: jsonFloor, workload: () => variant, env: { ENSIGN_METRICS_ENABLED: 'false', ENSIGN_ANALYTICS_ENABLED: 'false' } },
  ]);
  if (evaluatorBatch !== undefined) batches.push(evaluatorBatch);
  await onEvaluators([{ name: 'ensign evaluator, variant, bearer token', floor: jsonFloor, workload: (auth) => singleWorkload('variant', auth) }], bearerCredential);
  await onEvaluators([{ name: 'ensign evaluator, variant, JWT (RS256)', floor: jsonFloor, workload: (auth) => singleWorkload('variant', auth) }], jwtCredential);
  return { runs, bare, batchFloor, batches, floorOf, counted, uncounted };
}

/**
 * Every target once per round, in the same order; the first round warms each up for the full
 * warm-up, later ones for at most a second (new connections, JIT already warm). Only the target
 * being loaded runs: the others are stopped (SIGSTOP) meanwhile, so that their timers take no CPU
 * from it or from the load generator, and continued (SIGCONT) for their turn and at the end.
 */
async function measureTargets(generator: LoadGenerator): Promise<MeasuredTargets> {
  return scoped(async (scope) => {
    const started = await startTargets(scope, generator);
    const pids = started.runs.map((run) => run.pid);
    // Registered after the targets' own clean-ups, so it runs first: a stopped process cannot be stopped gracefully.
    scope.add(async () => signalAll(pids, 'SIGCONT'));
    signalAll(pids, 'SIGSTOP');
    const rounds = new Map<TargetRun, RoundFigures[]>(started.runs.map((run) => [run, []]));
    for (let round = 1; round <= HTTP_OPTIONS.rounds; round++) {
      console.log(`\nround ${round} of ${HTTP_OPTIONS.rounds}`);
      const warmup = round === 1 ? warmupSeconds : Math.min(1, warmupSeconds);
      for (const run of started.runs) {
        signalAll([run.pid], 'SIGCONT');
        rounds.get(run)!.push(await measureRound(run, seconds, warmup));
        signalAll([run.pid], 'SIGSTOP');
      }
    }
    const figures = new Map(started.runs.map((run) => [run, combineRounds(run, rounds.get(run)!)]));
    const of = (run: TargetRun) => figures.get(run)!;
    const floors = new Map([...started.floorOf].map(([run, floor]) => [of(run), of(floor)]));
    const { counted, uncounted } = started;
    return {
      targets: [...figures.values()],
      bare: of(started.bare),
      batches: started.batches.map(of),
      batchFloor: of(started.batchFloor),
      floors,
      counting: counted === undefined || uncounted === undefined ? undefined : { counted: of(counted), uncounted: of(uncounted) },
    };
  });
}

async function main(): Promise<number> {
  const started = performance.now();
  const { targets, bare, batches, batchFloor, floors, counting, generator, largeNamespace } = await scoped(async (scope) => {
    const generator = chooseLoadGenerator({ preference: HTTP_OPTIONS.loadGenerator, dir: scratchDirectory(scope), connections, cpu: placement.clientCpu });
    console.log(`load generator: ${generator.name}${generator.name === 'wrk' ? '' : ' (wrk not found or not chosen)'}; ${placement.description}`);
    const measured = await measureTargets(generator);
    const largeNamespace: LargeNamespaceFigures | undefined =
      HTTP_OPTIONS.memoryFlags > 0 ? await measureLargeNamespace(HTTP_OPTIONS.memoryFlags, generator, placement) : undefined;
    return { ...measured, generator: generator.name, largeNamespace };
  });

  printTargets(targets, bare, floors, { generator, rounds: HTTP_OPTIONS.rounds, seconds, warmupSeconds, connections, placement: placement.description });
  for (const batch of batches) printBatch(batch, batchFloor, bare);
  if (counting !== undefined) printCounting(counting.counted, counting.uncounted);
  if (largeNamespace !== undefined) printLargeNamespace(largeNamespace);
  const loadAverage = os.loadavg()[0] ?? 0;
  if (loadAverage > os.cpus().length) console.log(`(load average ${loadAverage.toFixed(1)}: other work was running)`);
  const runSeconds = Math.round((performance.now() - started) / 1000);
  console.log(`\nrun took ${runSeconds} s`);

  const path = writeResults('http.json', {
    ...machineOf(loadAverageBefore),
    loadGenerator: generator,
    rounds: HTTP_OPTIONS.rounds,
    seconds,
    warmupSeconds,
    connections,
    pinned: placement.pinned,
    placement: placement.description,
    runSeconds,
    targets: targets.map((t) => {
      const { toBare: r, floor, toFloor: f } = targetRatios(t, bare, floors);
      const round = (n: number | undefined) => (n === undefined ? undefined : Math.round(n * 1000) / 1000);
      return {
        ...t,
        requestsToBare: round(r.requestsRatio),
        p99ToBare: round(r.p99Ratio),
        perCoreToBare: round(r.perCoreRatio),
        floor,
        requestsToFloor: round(f?.requestsRatio),
        p99ToFloor: round(f?.p99Ratio),
      };
    }),
    batches: batches.map((batch) => ({ target: batch.target, ...batchFigures(batch, bare), floor: batchFigures(batchFloor, bare) })),
    counting: counting === undefined ? undefined : ratiosTo(counting.counted, counting.uncounted),
    largeNamespace,
  });
  console.log(`written ${path}`);

  const failed = [...targets, ...(largeNamespace === undefined ? [] : [largeNamespace.load])].filter((t) => t.errors > 0 || t.non2xx > 0);
  for (const t of failed) console.error(`${t.target} answered ${t.errors} errors and ${t.non2xx} non-2xx statuses; its figures are not valid`);
  return failed.length > 0 ? 1 : 0;
}

await runToExit('HTTP benchmark', main, clearTimeoutGuard);
