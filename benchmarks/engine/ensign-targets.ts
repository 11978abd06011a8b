/**
 * The ensign processes the HTTP benchmark loads, each started fresh for its target on a SQLite file of
 * its own, seeded with the benchmark namespace through /api/v1 and checked against the engine before
 * any load: `ensign server` alone, and `ensign server` publishing to a NATS bucket of the run with
 * `ensign evaluator` processes following it. Everything started is stopped when `scope` closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { testBucket, type TestBucket } from '@ensign/testkit';
import { type EnsignNode, startNode } from '../propagation/ensign-cluster.js';
import { KeepAliveClient } from '../propagation/keep-alive-client.js';
import type { RunScope } from '../writes/run-scope.js';
import type { Credential } from './auth-credentials.js';
import { stop } from './child-processes.js';
import type { CpuPlacement } from './cpu-placement.js';
import { HTTP_OPTIONS } from './http-options.js';
import { checkAgainstEngine, checkOfrepAgainstEngine, seedBenchNamespace, untilAgreesWithEngine } from './seed-ensign.js';

/** A directory of the scope's own (working directory, database, key files). */
export function scratchDirectory(scope: RunScope): string {
  const dir = mkdtempSync(join(os.tmpdir(), 'ensign-http-bench-'));
  scope.add(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startScoped(scope: RunScope, name: string, command: 'server' | 'evaluator', cwd: string, env: Record<string, string>): Promise<EnsignNode> {
  const node = await startNode(name, command, cwd, env, HTTP_OPTIONS.serverNodeArgs, HTTP_OPTIONS.executable);
  scope.add(() => stop(node.child, 5000));
  return node;
}

/** A client of `node` carrying `credential` (when the node requires one). */
const clientOf = (node: EnsignNode, credential: Credential | undefined) =>
  new KeepAliveClient(node.port, credential === undefined ? {} : { authorization: credential.authorization });

async function seedAndCheck(client: KeepAliveClient): Promise<void> {
  const started = performance.now();
  const calls = await seedBenchNamespace(client);
  await checkAgainstEngine(client);
  await checkOfrepAgainstEngine(client);
  console.log(`  seeded (${calls} calls) and checked against the engine in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** `ensign server` on its own CPU, seeded and checked; with `credential`, authentication is required. */
export async function seededServer(scope: RunScope, placement: CpuPlacement, credential?: Credential): Promise<EnsignNode> {
  const dir = scratchDirectory(scope);
  const server = await startScoped(scope, 'ensign server', 'server', dir, { ENSIGN_DB_URL: `file:${join(dir, 'ensign.db')}`, ...credential?.env });
  placement.underTest(server.child.pid);
  await seedAndCheck(clientOf(server, credential));
  return server;
}

export interface EvaluatorCluster {
  server: EnsignNode;
  /** Starts an evaluator on the bucket (with `env` added), on the CPU under test, once it answers as the engine does. */
  startEvaluator(scope: RunScope, env?: Record<string, string>): Promise<EnsignNode>;
}

/**
 * `ensign server` publishing to a NATS bucket unique to the run, seeded through its API and kept off
 * the CPU under test; evaluators are started on the bucket per target. With `credential`, the server
 * and every evaluator require it (evaluators learn tokens from the bus, and read a JWT key themselves).
 */
export async function evaluatorCluster(scope: RunScope, placement: CpuPlacement, credential?: Credential): Promise<EvaluatorCluster> {
  const dir = scratchDirectory(scope);
  const bucket: TestBucket = testBucket('ensign_http');
  scope.add(() => bucket.drop());
  const server = await startScoped(scope, 'ensign server', 'server', dir, { ...bucket.env(), ENSIGN_DB_URL: `file:${join(dir, 'ensign.db')}`, ...credential?.env });
  placement.helper(server.child.pid);
  await seedAndCheck(clientOf(server, credential));
  return {
    server,
    async startEvaluator(evaluatorScope, env = {}) {
      const evaluator = await startScoped(evaluatorScope, 'ensign evaluator', 'evaluator', dir, { ...bucket.env(), ...credential?.env, ...env });
      placement.underTest(evaluator.child.pid);
      // The server publishes without holding up its writes: the bucket may lag the last ones briefly.
      await untilAgreesWithEngine(clientOf(evaluator, credential), 30_000);
      return evaluator;
    },
  };
}
