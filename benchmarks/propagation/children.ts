/**
 * Every process the benchmark starts, and the clean-up to run however it ends: children are
 * SIGKILLed on any exit (crash, timeout, Ctrl-C), and the async clean-ups (database, NATS
 * streams, temp directory) run once, bounded, on a normal end, a signal or the hard timeout.
 */
import { type ChildProcess } from 'node:child_process';
import { stop } from '../engine/child-processes.js';

const children = new Set<ChildProcess>();
const cleanups: Array<() => Promise<unknown>> = [];
let cleaning: Promise<void> | undefined;

/** Registers a child so that it never outlives the benchmark. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Registers an async clean-up; they run in reverse order of registration. */
export function onCleanup(work: () => Promise<unknown>): void {
  cleanups.push(work);
}

/** Stops every child (SIGTERM, then SIGKILL), then runs the clean-ups; at most `boundMs` in all. */
export function cleanUp(boundMs = 20_000): Promise<void> {
  cleaning ??= (async () => {
    const work = (async () => {
      await Promise.all([...children].map((c) => stop(c, 3000)));
      for (const job of cleanups.reverse()) {
        await job().catch((err: Error) => console.error(`clean-up failed: ${err.message}`));
      }
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)))]);
    clearTimeout(timer);
  })();
  return cleaning;
}

/**
 * Installs the safety nets: a hard timeout, SIGINT/SIGTERM, uncaught errors, and a last SIGKILL
 * of any child still there when the process exits.
 */
export function installSafetyNets(timeoutSeconds: number, name = 'propagation benchmark'): () => void {
  let aborting = false;
  const abort = (reason: string) => {
    // What fails after the first reason is fallout of the children being stopped.
    if (aborting) return;
    aborting = true;
    console.error(reason);
    void cleanUp().finally(() => process.exit(1));
  };
  const timer = setTimeout(() => abort(`${name}: hard timeout of ${timeoutSeconds} s reached; stopping`), timeoutSeconds * 1000);
  process.once('SIGINT', () => abort('interrupted'));
  process.once('SIGTERM', () => abort('terminated'));
  process.on('uncaughtException', (err) => abort(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (err) => abort(`unhandled rejection: ${String((err as Error)?.stack ?? err)}`));
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  return () => clearTimeout(timer);
}

/** Runs a benchmark's `main`, reports a crash, always cleans up, and exits with its code (1 on a crash). */
export async function runToExit(name: string, main: () => Promise<number>, clearTimeoutGuard: () => void): Promise<never> {
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    console.error(`${name} failed: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await cleanUp();
    clearTimeoutGuard();
  }
  process.exit(code);
}
