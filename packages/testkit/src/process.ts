/** Runs the real `ensign` executable as a child process, the way a user or a service manager would. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

/** Absolute path of the repository checkout this testkit belongs to. */
export const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** The compiled executable that `npm start` and `npx ensign` run. */
export const ensignMain = join(repositoryRoot, 'packages/cli/dist/src/main.js');

/** How to start `ensign server` (or `ensign evaluator`). */
export interface StartOptions {
  /** The command to run; `server` by default. */
  command?: 'server' | 'evaluator';
  /** Resolve once `GET /health` answers 200 (default), or once it answers at all (`listening`). */
  waitFor?: 'healthy' | 'listening';
  /** Extra arguments after the command. */
  args?: string[];
  /** Environment on top of the inherited one (`ENSIGN_*` variables of the test runner are not inherited); `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** `false`: the process gets `env` only, nothing of the test runner's environment. */
  inheritEnv?: boolean;
  /**
   * The command line before `ensign`'s own arguments: `[node, packages/cli/dist/src/main.js]` by
   * default; the single-file executable's tests put the executable (or a wrapper around it) here.
   */
  launcher?: readonly string[];
  /** Working directory; a fresh temporary directory by default (so `./data/ensign.db` lands there). */
  cwd?: string;
  /** Written to a YAML file (as JSON, which is YAML) and passed with `--config`. */
  config?: Record<string, unknown>;
  /** How long to wait for `GET /health` to answer 200 (60 s by default: CI machines can be busy). */
  startTimeoutMs?: number;
  /**
   * For a process serving HTTPS (`ENSIGN_SERVER_PROTOCOL=https`): the PEM certificate (or CA) its
   * listener is trusted with; `baseUrl` is then `https://`.
   */
  tlsCa?: string | Buffer;
}

/** A running `ensign server`. */
export interface EnsignProcess {
  baseUrl: string;
  port: number;
  /** The gRPC port (`server.grpc_port`): a free one unless the caller set `ENSIGN_SERVER_GRPC_PORT`. */
  grpcPort: number;
  /** `127.0.0.1:<grpcPort>`, as a gRPC client dials it. */
  grpcAddress: string;
  pid: number;
  /** The working directory of the process. */
  cwd: string;
  /** Everything the process wrote to stdout and stderr so far. */
  logs(): string;
  /** Sends `signal` (SIGTERM by default) and resolves the exit code (128+n when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number>;
  /** Kills the process without letting it clean up. */
  kill9(): Promise<void>;
  /** Resolves the exit code whenever the process ends. */
  exited: Promise<number>;
}

/** The outcome of a one-shot command such as `ensign migrate`. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

const live = new Set<ChildProcess>();
const scratch = new Set<string>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory removed when the test process exits. */
export function scratchDir(prefix = 'ensign-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.add(dir);
  return dir;
}

/** `node main.js`: how `npm start` and `npx ensign` run it. */
const NODE_LAUNCHER: readonly string[] = [process.execPath, ensignMain];

function childEnv(extra: Record<string, string | undefined> = {}, inherit = true): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  if (inherit) for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('ENSIGN_')) env[name] = value;
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

const exitCodeOf = (code: number | null, signal: NodeJS.Signals | null): number =>
  code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);

function track(child: ChildProcess): { output: () => string; exited: Promise<number> } {
  const chunks: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  live.add(child);
  const exited = new Promise<number>((resolve) => {
    child.once('close', (code, signal) => {
      live.delete(child);
      resolve(exitCodeOf(code, signal));
    });
  });
  return { output: () => chunks.join(''), exited };
}

/** Runs `ensign <args…>` to completion (bounded by `timeoutMs`). */
export async function runEnsign(
  args: string[],
  options: Pick<StartOptions, 'env' | 'inheritEnv' | 'launcher' | 'cwd'> & { timeoutMs?: number } = {},
): Promise<CommandResult> {
  const [command = process.execPath, ...prefix] = options.launcher ?? NODE_LAUNCHER;
  const child = spawn(command, [...prefix, ...args], {
    cwd: options.cwd ?? scratchDir(),
    env: childEnv(options.env, options.inheritEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  live.add(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
  const code = await new Promise<number>((resolve) => child.once('close', (c, s) => resolve(exitCodeOf(c, s))));
  clearTimeout(timer);
  live.delete(child);
  return { code, stdout, stderr };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The status of `GET <baseUrl>/health` over TLS trusting `ca` (fetch cannot be given a CA). */
function httpsStatus(url: string, ca: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsGet(url, { ca, timeout: 1000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
  });
}

/** One poll of `GET <baseUrl>/health`: whether it is what start-up waits for, and what it answered (for a timeout's message). */
async function healthy(baseUrl: string, waitFor: 'healthy' | 'listening', ca: string | Buffer | undefined): Promise<{ ready: boolean; seen: string }> {
  try {
    let status: number;
    if (ca !== undefined) {
      status = await httpsStatus(`${baseUrl}/health`, ca);
    } else {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      status = res.status;
    }
    return { ready: waitFor === 'listening' || status === 200, seen: `HTTP ${status}` };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return { ready: false, seen: cause };
  }
}

async function startOnce(options: StartOptions, cwd: string, port: number, grpcPort: number): Promise<EnsignProcess> {
  const command = options.command ?? 'server';
  const args: string[] = [command];
  if (options.config !== undefined) {
    const file = join(scratchDir('ensign-config-'), 'ensign.yml');
    writeFileSync(file, JSON.stringify(options.config, null, 2));
    args.push('--config', file);
  }
  args.push(...(options.args ?? []));
  const [executable = process.execPath, ...prefix] = options.launcher ?? NODE_LAUNCHER;
  const child = spawn(executable, [...prefix, ...args], {
    cwd,
    env: childEnv({ ENSIGN_SERVER_HOST: '127.0.0.1', ENSIGN_SERVER_HTTP_PORT: String(port), ...options.env, ENSIGN_SERVER_GRPC_PORT: String(grpcPort) }, options.inheritEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = track(child);
  let exitCode: number | undefined;
  void exited.then((code) => (exitCode = code));

  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number> => {
    if (exitCode !== undefined) return exitCode;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  const baseUrl = `${options.tlsCa === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    const poll = await healthy(baseUrl, options.waitFor ?? 'healthy', options.tlsCa);
    if (poll.ready) break;
    if (exitCode !== undefined) {
      const err = new Error(`ensign ${command} exited with code ${exitCode} before it was healthy:\n${output()}`);
      // Not enumerable, so test reports do not print the logs twice.
      Object.defineProperty(err, 'logs', { value: output(), enumerable: false });
      throw err;
    }
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      // What /health last answered (a status, or ECONNREFUSED while nothing listens) says where the start stood.
      throw new Error(`ensign ${command} was not healthy within ${options.startTimeoutMs ?? 60_000} ms (GET /health last: ${poll.seen}):\n${output()}`);
    }
    await delay(50);
  }

  return {
    baseUrl,
    port,
    grpcPort,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    pid: child.pid as number,
    cwd,
    logs: output,
    stop,
    kill9: async () => {
      await stop('SIGKILL');
    },
    exited,
  };
}

/**
 * Starts `ensign server` on free ports (HTTP and gRPC, so parallel tests never share one) and
 * resolves once `GET /health` answers 200; fails with the process's logs when it exits or does not
 * become healthy in time. Callers stop it in teardown.
 */
export async function startEnsign(options: StartOptions = {}): Promise<EnsignProcess> {
  const cwd = options.cwd ?? scratchDir();
  const fixedPort = options.env?.ENSIGN_SERVER_HTTP_PORT;
  const fixedGrpcPort = options.env?.ENSIGN_SERVER_GRPC_PORT;
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort !== undefined ? Number(fixedPort) : await freePort();
    const grpcPort = fixedGrpcPort !== undefined ? Number(fixedGrpcPort) : await freePort();
    try {
      return await startOnce(options, cwd, port, grpcPort);
    } catch (err) {
      // A process outside the tests may take a port between asking for it and listening on it; try again.
      const lostRace = (fixedPort === undefined || fixedGrpcPort === undefined) && String((err as { logs?: string }).logs ?? '').includes('EADDRINUSE');
      if (!lostRace || attempt >= 3) throw err;
    }
  }
}
