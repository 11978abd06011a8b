/**
 * The evaluation path against the bare-Node ceiling, in one run. Each target is a process of its own,
 * started fresh (an ensign one seeded with the benchmark namespace and checked against the engine),
 * loaded from a separate process (wrk, or autocannon where wrk is missing; a grpc-js client for
 * gRPC): bare node:http; `ensign server` variant, boolean, batch of 50 and gRPC Variant; `ensign
 * server` with a bearer token and with a JWT required; `ensign evaluator` variant and boolean. Then
 * the memory of an evaluator holding a 10,000-flag namespace. Run: `npm run bench:http` (writes
 * benchmarks/results/http.json); the BENCH_HTTP_* settings are in http-options.ts.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { installSafetyNets, runToExit } from '../propagation/children.js';
import { RunScope } from '../writes/run-scope.js';
import { bearerCredential, type Credential, jwtCredential } from './auth-credentials.js';
import { bareServer } from './bare-target.js';
import { CpuPlacement } from './cpu-placement.js';
import { evaluatorCluster, scratchDirectory, seededServer } from './ensign-targets.js';
import { againstBare, batchFigures, printBatch, printLargeNamespace, printTargets } from './http-report.js';
import { HTTP_OPTIONS } from './http-options.js';
import { BATCH_SIZE, batchWorkload, type HttpWorkload, singleWorkload } from './http-workload.js';
import { measureLargeNamespace, type LargeNamespaceFigures } from './large-namespace-memory.js';
import { chooseLoadGenerator, type LoadGenerator, type LoadResult } from './load-generator.js';
import { runLoadProcess } from './load-process.js';
import { measureTarget, type TargetFigures } from './measure-target.js';
import { machineOf, writeResults } from './results-file.js';

const GRPC_CLIENT = fileURLToPath(new URL('./grpc-load-client.js', import.meta.url));
const { seconds, warmupSeconds, connections } = HTTP_OPTIONS;

const clearTimeoutGuard = installSafetyNets(HTTP_OPTIONS.timeoutSeconds, 'HTTP benchmark');
const loadAverageBefore = os.loadavg();
const placement = new CpuPlacement(HTTP_OPTIONS.serverCpu, HTTP_OPTIONS.clientCpu);

const measure = (target: string, pid: number | undefined, load: (seconds: number) => Promise<LoadResult>, evaluationsPerRequest = 1) =>
  measureTarget({ target, pid, load, evaluationsPerRequest }, seconds, warmupSeconds);

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

/** Every target in turn, each on a fresh process. */
async function measureTargets(generator: LoadGenerator): Promise<{ targets: TargetFigures[]; bare: TargetFigures; batch: TargetFigures }> {
  const variant = singleWorkload('variant');
  const boolean = singleWorkload('boolean');
  const targets: TargetFigures[] = [];
  const http = (port: number, workload: HttpWorkload) => (s: number) => generator.run(`http://127.0.0.1:${port}`, workload, s);
  /** A seeded `ensign server` loaded with `workload`; `credentialOf` makes it require the credential it returns. */
  const onServer = (name: string, workload: (authorization?: string) => HttpWorkload, credentialOf?: (dir: string) => Credential | Promise<Credential>) =>
    scoped(async (scope) => {
      const credential = await credentialOf?.(scratchDirectory(scope));
      const server = await seededServer(scope, placement, credential);
      const requests = workload(credential?.authorization);
      return measure(name, server.child.pid, http(server.port, requests), requests.evaluationsPerRequest);
    });

  // The bare server reads the variant bodies, so it is loaded with requests of the same sizes.
  const bare = await scoped(async (scope) => {
    const server = await bareServer(scope, placement);
    return measure('bare node:http (fixed body)', server.pid, http(server.port, variant));
  });
  targets.push(bare);
  targets.push(
    await scoped(async (scope) => {
      const server = await bareServer(scope, placement, 'json');
      return measure('bare node:http, JSON in and out', server.pid, http(server.port, variant));
    }),
  );
  targets.push(await onServer('ensign server, variant', () => variant));
  targets.push(await onServer('ensign server, boolean', () => boolean));
  const batch = await onServer(`ensign server, batch of ${BATCH_SIZE} variant`, batchWorkload);
  targets.push(batch);
  targets.push(
    await scoped(async (scope) => {
      const server = await seededServer(scope, placement);
      return measure('ensign server, gRPC Variant', server.child.pid, (s) => grpcLoad(`127.0.0.1:${server.grpcPort}`, s));
    }),
  );
  targets.push(await onServer('ensign server, variant, bearer token', (auth) => singleWorkload('variant', auth), bearerCredential));
  targets.push(await onServer('ensign server, variant, JWT (RS256)', (auth) => singleWorkload('variant', auth), jwtCredential));
  const cluster = await scoped(async (scope) => {
    const { startEvaluator } = await evaluatorCluster(scope, placement);
    const figures: TargetFigures[] = [];
    for (const [name, workload] of [['ensign evaluator, variant', variant], ['ensign evaluator, boolean', boolean]] as const) {
      figures.push(
        await scoped(async (evaluatorScope) => {
          const evaluator = await startEvaluator(evaluatorScope);
          return measure(name, evaluator.child.pid, http(evaluator.port, workload));
        }),
      );
    }
    return figures;
  });
  targets.push(...cluster);
  return { targets, bare, batch };
}

async function main(): Promise<number> {
  const started = performance.now();
  const { targets, bare, batch, generator, largeNamespace } = await scoped(async (scope) => {
    const generator = chooseLoadGenerator({ preference: HTTP_OPTIONS.loadGenerator, dir: scratchDirectory(scope), connections, cpu: placement.clientCpu });
    console.log(`load generator: ${generator.name}${generator.name === 'wrk' ? '' : ' (wrk not found or not chosen)'}; ${placement.description}`);
    const measured = await measureTargets(generator);
    const largeNamespace: LargeNamespaceFigures | undefined =
      HTTP_OPTIONS.memoryFlags > 0 ? await measureLargeNamespace(HTTP_OPTIONS.memoryFlags, generator, placement) : undefined;
    return { ...measured, generator: generator.name, largeNamespace };
  });

  printTargets(targets, bare, { generator, seconds, warmupSeconds, connections, placement: placement.description });
  printBatch(batch, bare);
  if (largeNamespace !== undefined) printLargeNamespace(largeNamespace);
  const loadAverage = os.loadavg()[0] ?? 0;
  if (loadAverage > os.cpus().length) console.log(`(load average ${loadAverage.toFixed(1)}: other work was running)`);
  const runSeconds = Math.round((performance.now() - started) / 1000);
  console.log(`\nrun took ${runSeconds} s`);

  const path = writeResults('http.json', {
    ...machineOf(loadAverageBefore),
    loadGenerator: generator,
    seconds,
    warmupSeconds,
    connections,
    pinned: placement.pinned,
    placement: placement.description,
    runSeconds,
    targets: targets.map((t) => {
      const r = againstBare(t, bare);
      const round = (n: number | undefined) => (n === undefined ? undefined : Math.round(n * 1000) / 1000);
      return { ...t, requestsToBare: round(r.requestsRatio), p99ToBare: round(r.p99Ratio), perCoreToBare: round(r.perCoreRatio) };
    }),
    batch: batchFigures(batch, bare),
    largeNamespace,
  });
  console.log(`written ${path}`);

  const failed = [...targets, ...(largeNamespace === undefined ? [] : [largeNamespace.load])].filter((t) => t.errors > 0 || t.non2xx > 0);
  for (const t of failed) console.error(`${t.target} answered ${t.errors} errors and ${t.non2xx} non-2xx statuses; its figures are not valid`);
  return failed.length > 0 ? 1 : 0;
}

await runToExit('HTTP benchmark', main, clearTimeoutGuard);
