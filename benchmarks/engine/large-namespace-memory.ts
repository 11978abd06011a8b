/**
 * How much memory `ensign evaluator` needs for a large namespace: the writes benchmark's realistic mix
 * of `flags` flags is seeded the way that benchmark does (the API's decoders and services in this
 * process, on the database file, before the server starts), the server publishes it to a NATS bucket
 * of the run, an evaluator hydrates it and then answers variant evaluations over every variant flag
 * for a few seconds; its VmHWM is read after that.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '@ensign/store';
import { testBucket } from '@ensign/testkit';
import { startNode } from '../propagation/ensign-cluster.js';
import { untilRevision } from '../writes/held-revision.js';
import { inProcessApi } from '../writes/in-process-api.js';
import { seedNamespaceMix } from '../writes/namespace-mix.js';
import { RunScope } from '../writes/run-scope.js';
import { stop } from './child-processes.js';
import type { CpuPlacement } from './cpu-placement.js';
import { scratchDirectory } from './ensign-targets.js';
import { HTTP_OPTIONS, MEMORY_AIM_MB } from './http-options.js';
import { variantWorkloadOver } from './http-workload.js';
import type { LoadGenerator } from './load-generator.js';
import { measureTarget, type TargetFigures } from './measure-target.js';
import { peakRssMb, rssMb } from './process-memory.js';

const NS = 'large';

export interface LargeNamespaceFigures {
  flags: number;
  variantFlags: number;
  seedCalls: number;
  seedSeconds: number;
  /** From starting the server to the evaluator holding the seeded revision. */
  hydrateSeconds: number;
  /** VmHWM before the load, with the namespace held. */
  peakRssHydratedMb: number | undefined;
  load: TargetFigures;
  /** VmRSS right after the load. */
  rssAfterLoadMb: number | undefined;
  aimMb: number;
  withinAim: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function measureLargeNamespace(flags: number, generator: LoadGenerator, placement: CpuPlacement): Promise<LargeNamespaceFigures> {
  const scope = new RunScope();
  try {
    const dir = scratchDirectory(scope);
    const dbUrl = `file:${join(dir, 'ensign.db')}`;
    console.log(`large namespace: seeding ${flags.toLocaleString('en-US')} flags in-process`);
    const seedStart = performance.now();
    const store = await openStore({ url: dbUrl });
    let seeded: Awaited<ReturnType<typeof seedNamespaceMix>>;
    let revision: number;
    try {
      await store.migrate();
      seeded = await seedNamespaceMix(inProcessApi(store), NS, flags);
      revision = await store.revision(NS);
    } finally {
      await store.close();
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const bucket = testBucket('ensign_http_mem');
    scope.add(() => bucket.drop());
    const startedAt = performance.now();
    const server = await startNode('ensign server', 'server', dir, { ...bucket.env(), ENSIGN_DB_URL: dbUrl }, HTTP_OPTIONS.serverNodeArgs, HTTP_OPTIONS.executable);
    scope.add(() => stop(server.child, 5000));
    placement.helper(server.child.pid);
    const evaluator = await startNode('ensign evaluator', 'evaluator', dir, bucket.env(), HTTP_OPTIONS.serverNodeArgs, HTTP_OPTIONS.executable);
    scope.add(() => stop(evaluator.child, 5000));
    placement.underTest(evaluator.child.pid);
    if ((await untilRevision(evaluator.client, NS, revision, 120_000, 50)) === undefined) {
      throw new Error(`the evaluator did not hold namespace ${NS} at revision ${revision} within 120 s`);
    }
    const hydrateSeconds = (performance.now() - startedAt) / 1000;
    const peakRssHydratedMb = peakRssMb(evaluator.child.pid);

    const variantFlags = seeded.flags.filter((f) => f.kind === 'variant').map((f) => f.key);
    const workload = variantWorkloadOver(NS, variantFlags);
    const load = await measureTarget(
      {
        target: `ensign evaluator, ${flags.toLocaleString('en-US')}-flag namespace`,
        pid: evaluator.child.pid,
        evaluationsPerRequest: 1,
        load: (seconds) => generator.run(`http://127.0.0.1:${evaluator.port}`, workload, seconds),
      },
      HTTP_OPTIONS.memorySeconds,
      0,
    );
    const rssAfterLoadMb = rssMb(evaluator.child.pid);
    return {
      flags,
      variantFlags: variantFlags.length,
      seedCalls: seeded.calls,
      seedSeconds: round2(seedSeconds),
      hydrateSeconds: round2(hydrateSeconds),
      peakRssHydratedMb,
      load,
      rssAfterLoadMb,
      aimMb: MEMORY_AIM_MB,
      withinAim: load.peakRssMb !== undefined && load.peakRssMb < MEMORY_AIM_MB,
    };
  } finally {
    await scope.close();
  }
}
