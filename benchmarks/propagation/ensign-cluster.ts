/**
 * The system under test: one `ensign server` publishing snapshots to NATS and two `ensign evaluator`
 * processes reading them, each on a free port of 127.0.0.1, started from the compiled CLI.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../engine/child-processes.js';
import { track } from './children.js';
import { KeepAliveClient } from './keep-alive-client.js';
import type { TestBucket } from '@ensign/testkit';

const CLI_MAIN = fileURLToPath(new URL('../../../packages/cli/dist/src/main.js', import.meta.url));

export interface EnsignNode {
  name: string;
  child: ChildProcess;
  port: number;
  grpcPort: number;
  client: KeepAliveClient;
}

/** The parent's environment without its ENSIGN_* settings, plus `extra`. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('ENSIGN_')) env[name] = value;
  return { ...env, ...extra };
}

async function waitForHealth(node: EnsignNode, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (node.child.exitCode !== null) throw new Error(`${node.name} exited with ${node.child.exitCode}`);
    try {
      if ((await node.client.send('GET', '/health')).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${node.name} did not answer /health with 200 within ${timeoutMs} ms`);
}

/**
 * Starts `ensign <command>` in `cwd` and resolves once its /health answers 200; `nodeArgs` go to
 * node before the script (e.g. `--cpu-prof` to profile it). With `executable` (the single-file
 * executable's path), that runs the command instead of node, and `nodeArgs` are not used.
 */
export async function startNode(
  name: string,
  command: 'server' | 'evaluator',
  cwd: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  executable?: string,
): Promise<EnsignNode> {
  const port = await freePort();
  // Both commands serve gRPC too: each needs a port of its own, not the default 9000.
  const grpcPort = await freePort();
  const ports = { ENSIGN_SERVER_HTTP_PORT: String(port), ENSIGN_SERVER_GRPC_PORT: String(grpcPort) };
  const child = track(
    spawn(executable ?? process.execPath, executable === undefined ? [...nodeArgs, CLI_MAIN, command] : [command], {
      cwd,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: childEnv({ ...env, ENSIGN_SERVER_HOST: '127.0.0.1', ...ports, ENSIGN_LOG_LEVEL: 'warn' }),
    }),
  );
  const node = { name, child, port, grpcPort, client: new KeepAliveClient(port) };
  await waitForHealth(node);
  return node;
}

export interface Cluster {
  server: EnsignNode;
  evaluators: EnsignNode[];
}

/** The server first (it creates the bucket), then the evaluators side by side. */
export async function startCluster(options: { dbUrl: string; streams: TestBucket; cwd: string; evaluators: number }): Promise<Cluster> {
  const nats = options.streams.env();
  const server = await startNode('ensign server', 'server', options.cwd, { ...nats, ENSIGN_DB_URL: options.dbUrl });
  const evaluators = await Promise.all(
    Array.from({ length: options.evaluators }, (_, i) => startNode(`evaluator ${i + 1}`, 'evaluator', options.cwd, nats)),
  );
  return { server, evaluators };
}
