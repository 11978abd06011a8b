/**
 * Runs a load generator as its own process, pinned to a CPU from its first instruction (`taskset -c`,
 * so every thread it starts inherits the CPU), never outliving the benchmark nor its deadline.
 */
import { spawn } from 'node:child_process';
import { track } from '../propagation/children.js';

/** Runs `command args` to completion and resolves its stdout; rejects on a non-zero exit or after `timeoutMs`. */
export async function runLoadProcess(command: string, args: string[], options: { cpu: number | undefined; timeoutMs: number }): Promise<string> {
  const [file, argv] = options.cpu === undefined ? [command, args] : ['taskset', ['-c', String(options.cpu), command, ...args]];
  const child = track(spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    // 'close', not 'exit': the whole of stdout has been read by then.
    child.once('close', (c, s) => resolve([c, s]));
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${err.trim().slice(-2000)}`);
  return out;
}
