/**
 * `ensign server` on a run's database with a NATS bucket of its own, and one `ensign evaluator`
 * following it; the run's scope stops both and drops the bucket when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { testBucket } from '@ensign/testkit';
import { stop } from '../engine/child-processes.js';
import { type EnsignNode, startCluster } from '../propagation/ensign-cluster.js';
import type { RunScope } from './run-scope.js';

export interface BenchCluster {
  server: EnsignNode;
  evaluator: EnsignNode;
  bucket: string;
}

export async function startBenchCluster(scope: RunScope, dbUrl: string): Promise<BenchCluster> {
  const cwd = mkdtempSync(join(os.tmpdir(), 'ensign-writes-cwd-'));
  scope.add(async () => rmSync(cwd, { recursive: true, force: true }));
  const streams = testBucket('ensign_b');
  scope.add(() => streams.drop());
  const cluster = await startCluster({ dbUrl, streams, cwd, evaluators: 1 });
  const nodes = [cluster.server, ...cluster.evaluators];
  scope.add(() => Promise.all(nodes.map((n) => stop(n.child, 3000))));
  return { server: cluster.server, evaluator: cluster.evaluators[0]!, bucket: streams.bucket };
}
