/** Starting and stopping the benchmark's child processes, and a free port to give them. */
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Forks a script that reports `{port}` over IPC once it listens. */
export async function forkListening(script: string, timeoutMs = 10_000, args: readonly string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(script, [...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not report a port`)), timeoutMs);
    child.once('message', (m: { port: number }) => {
      clearTimeout(timer);
      resolve(m.port);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, port };
}

/**
 * Pins a process and all its threads to one CPU with `taskset`, so that the server and the load
 * generator do not compete for a core. Returns false where that is not possible (no taskset, one CPU).
 */
export function pin(pid: number | undefined, cpu: number | undefined): boolean {
  if (pid === undefined || cpu === undefined) return false;
  const r = spawnSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
  return r.status === 0;
}

/** Runs `node <script> ...args` to completion (pinned to `cpu` if given) and returns its stdout. */
export async function runToCompletion(script: string, args: string[], cpu?: number): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  pin(child.pid, cpu);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return out;
}

/** Sends SIGTERM, then SIGKILL if the child is still there after `graceMs`. */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
