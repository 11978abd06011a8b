/**
 * The components of one `ensign` process, started in declared order and stopped in reverse by one
 * stack (Flipt's `onShutdown` habit): a failed start and a stop signal unwind the same way, so
 * whatever was started is stopped exactly once, and nothing that was not started is touched.
 */

import type { Logger } from 'pino';

/** Stops one component; `timeoutMs` bounds how long it may drain (0 when start-up failed). */
export type Stop = (timeoutMs: number) => Promise<unknown> | void;

/**
 * Given to each component's start to say how it stops, as soon as there is something to stop: a
 * start that fails after that point is unwound like any started component.
 */
export type OnStop = (stop: Stop) => void;

/** Wrappers around each start and stop: how a test fails one start in turn and records the stops. */
export interface LifecycleHooks {
  start?: <T>(name: string, start: () => Promise<T>) => Promise<T>;
  stop?: (name: string, stop: () => Promise<unknown>) => Promise<unknown>;
}

export interface ComponentOptions {
  /**
   * Components of one group stop concurrently, as one step of the reverse order: the HTTP and gRPC
   * listeners stop taking work at the same moment and drain within one timeout.
   */
  group?: string;
}

/** A component whose stop failed, and why. */
export interface StopFailure {
  name: string;
  err: unknown;
}

interface Entry {
  name: string;
  stop: Stop;
  group: string | undefined;
}

/** One stack of started components. */
export class Lifecycle {
  private readonly entries: Entry[] = [];
  private stopping: Promise<StopFailure[]> | undefined;

  constructor(private readonly hooks: LifecycleHooks = {}) {}

  /** Starts the component `name` and resolves its value; what it registered with `onStop` is stopped with the rest. */
  async start<T>(name: string, start: (onStop: OnStop) => Promise<T> | T, options: ComponentOptions = {}): Promise<T> {
    if (this.stopping !== undefined) throw new Error(`${name} not started: the process is stopping`);
    const run = async (): Promise<T> => start((stop) => this.entries.push({ name, stop, group: options.group }));
    return this.hooks.start === undefined ? run() : this.hooks.start(name, run);
  }

  /**
   * Stops every started component, the last started first, each once; one that fails does not keep
   * the others running. Resolves the failures (a second call resolves the same ones).
   */
  stop(timeoutMs: number): Promise<StopFailure[]> {
    this.stopping ??= this.unwind(timeoutMs);
    return this.stopping;
  }

  private async unwind(timeoutMs: number): Promise<StopFailure[]> {
    const failures: StopFailure[] = [];
    while (this.entries.length > 0) {
      const last = this.entries.at(-1) as Entry;
      // The top of the stack, with every entry below it of the same group.
      let from = this.entries.length - 1;
      while (last.group !== undefined && from > 0 && this.entries[from - 1]?.group === last.group) from -= 1;
      const step = this.entries.splice(from).reverse();
      const outcomes = await Promise.allSettled(step.map((entry) => this.stopOne(entry, timeoutMs)));
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'rejected') failures.push({ name: (step[i] as Entry).name, err: outcome.reason });
      });
    }
    return failures;
  }

  private async stopOne(entry: Entry, timeoutMs: number): Promise<unknown> {
    const run = async (): Promise<unknown> => entry.stop(timeoutMs);
    return this.hooks.stop === undefined ? run() : this.hooks.stop(entry.name, run);
  }
}

/** After a failed start: says why, stops what did start at once (the last started first), and says which of those stops failed too. */
export async function unwindFailedStart(stack: Lifecycle, logger: Logger, err: unknown): Promise<void> {
  logger.error({ err }, `start-up failed: ${(err as Error).message}`);
  for (const { name, err: stopErr } of await stack.stop(0)) logger.warn({ err: stopErr, component: name }, `stopping ${name} after the failed start failed`);
}

/**
 * On a stop signal: the listeners drain first (within `timeoutMs`), then every component stops in
 * reverse start order. Resolves whether all stopped cleanly; each stop that failed is logged.
 */
export async function stopForSignal(stack: Lifecycle, logger: Logger, signal: string, timeoutMs: number): Promise<boolean> {
  logger.info({ signal, timeoutMs }, 'shutting down');
  const failures = await stack.stop(timeoutMs);
  for (const { name, err } of failures) logger.error({ err, component: name }, `stopping ${name} failed`);
  return failures.length === 0;
}
