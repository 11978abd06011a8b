/**
 * The import scenario on one database: the Flipt-shaped import through `/api/v1` of a server that
 * publishes to NATS with an evaluator following, timed call by call; then the evaluator must hold both
 * namespaces at their final revision and answer for their flags as the server does.
 */
import { performance } from 'node:perf_hooks';
import { openStore } from '@ensign/store';
import { summarize, type Summary } from '../propagation/percentiles.js';
import { cpuSeconds } from '../propagation/process-cpu.js';
import { createBenchDatabase } from './bench-database.js';
import { startBenchCluster } from './bench-cluster.js';
import { importFliptShape, IMPORT_NAMESPACES } from './flipt-import.js';
import { untilRevision } from './held-revision.js';
import { httpApi, type ManagementApi } from './management-api.js';
import type { BenchDb } from './options.js';
import { publishedBetween, readPublishTotals, type PublishTotals } from './publish-metrics.js';
import { RunScope } from './run-scope.js';
import { compareAnswers } from './same-answers.js';

export interface ImportFigures {
  db: BenchDb;
  calls: number;
  totalSeconds: number;
  meanMsPerCall: number;
  perCall: Summary;
  serverCpuMsPerCall: number | undefined;
  nats: PublishTotals;
  /** End of the last call → the evaluator holding both namespaces at their final revision; undefined if it never did. */
  visibleAfterMs: number | undefined;
  problems: string[];
}

const CHECKED_FLAGS = ['flag_001', 'flag_025', 'flag_050'];
const CONTEXTS: Array<Record<string, string>> = [{ in_segment: 'segment_001' }, { in_segment: 'segment_037' }, {}];

/** `api`, recording every call's round trip into `into`. */
function timed(api: ManagementApi, into: number[]): ManagementApi {
  return {
    async send(method, path, body) {
      const start = performance.now();
      const answer = await api.send(method, path, body);
      into.push(performance.now() - start);
      return answer;
    },
  };
}

export async function runImport(db: BenchDb): Promise<ImportFigures> {
  const scope = new RunScope();
  try {
    const database = await createBenchDatabase(db);
    scope.add(() => database.drop());
    const { server, evaluator } = await startBenchCluster(scope, database.url);

    const roundTrips: number[] = [];
    const published = await readPublishTotals(server.client);
    const cpuBefore = cpuSeconds(server.child.pid);
    const start = performance.now();
    const calls = await importFliptShape(timed(httpApi(server.client), roundTrips));
    const end = performance.now();
    const cpuAfter = cpuSeconds(server.child.pid);

    const store = await openStore({ url: database.url });
    const revisions = await Promise.all(IMPORT_NAMESPACES.map((ns) => store.revision(ns)));
    await store.close();
    const problems: string[] = [];
    let visibleAt: number | undefined = end;
    for (const [i, ns] of IMPORT_NAMESPACES.entries()) {
      const at = await untilRevision(evaluator.client, ns, revisions[i]!, 30_000, 5);
      if (at === undefined) problems.push(`namespace ${ns} not held at revision ${revisions[i]} by the evaluator within 30 s`);
      visibleAt = at === undefined || visibleAt === undefined ? undefined : Math.max(visibleAt, at);
    }
    const nats = publishedBetween(published, await readPublishTotals(server.client));
    for (const ns of IMPORT_NAMESPACES) {
      for (const flagKey of CHECKED_FLAGS) {
        const mismatch = await compareAnswers(server.client, evaluator.client, ns, flagKey, CONTEXTS);
        if (mismatch !== undefined) problems.push(`${ns}/${mismatch}`);
      }
    }
    const totalSeconds = (end - start) / 1000;
    return {
      db,
      calls,
      totalSeconds: Math.round(totalSeconds * 10) / 10,
      meanMsPerCall: Math.round(((end - start) / calls) * 100) / 100,
      perCall: summarize(roundTrips),
      serverCpuMsPerCall: cpuBefore === undefined || cpuAfter === undefined ? undefined : Math.round(((cpuAfter - cpuBefore) * 1e5) / calls) / 100,
      nats,
      visibleAfterMs: visibleAt === undefined ? undefined : Math.round(visibleAt - end),
      problems,
    };
  } finally {
    await scope.close();
  }
}
