/**
 * How long the event loop is held up while some work runs, two ways. Node's `monitorEventLoopDelay`
 * gives wall time, which a loaded machine stretches (a descheduled slice looks long). On Linux the
 * main thread's own CPU time (`/proc/self/task/<pid>/stat`, in 10 ms ticks) between two turns of a
 * 1 ms timer gives the block itself, which load does not stretch: tests bound that one when it is
 * there. The work runs several times and each figure kept is the smallest of the runs' worst, so
 * noise must hit every run to count, and a real block, there every time, always does.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isMainThread } from 'node:worker_threads';

export interface EventLoopDelays {
  /** The smallest, over the runs, of a run's longest event-loop delay, milliseconds. */
  maxDelayMs: number;
  /** Likewise of the most main-thread CPU spent between two timer turns; undefined where it cannot be read. */
  longestBlockCpuMs: number | undefined;
  /** Each run's longest delay and longest block, milliseconds. */
  runs: Array<{ delayMs: number; blockCpuMs: number | undefined }>;
}

const STAT = `/proc/self/task/${process.pid}/stat`;

/** The main thread's CPU time so far (user + system), milliseconds; undefined off Linux or in a worker thread. */
function mainThreadCpuMs(): number | undefined {
  if (!isMainThread) return undefined;
  try {
    const stat = readFileSync(STAT, 'utf8');
    // After the command name (which may hold spaces), utime and stime are the 12th and 13th fields, in 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Runs `work` `runs` times, watching the event loop during each. */
export async function eventLoopDelays(runs: number, work: (run: number) => Promise<void>): Promise<EventLoopDelays> {
  const results: EventLoopDelays['runs'] = [];
  for (let run = 0; run < runs; run++) {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    let longest: number | undefined;
    let last = mainThreadCpuMs();
    let timer: NodeJS.Timeout | undefined;
    const sample = (): void => {
      const now = mainThreadCpuMs();
      if (now !== undefined && last !== undefined) longest = Math.max(longest ?? 0, now - last);
      last = now;
    };
    const loop = (): void => {
      sample();
      timer = setTimeout(loop, 1);
    };
    histogram.enable();
    try {
      // The monitor's first sample only starts its clock: let it fire once (1 ms resolution) before the work.
      await new Promise((resolve) => setTimeout(resolve, 3));
      last = mainThreadCpuMs();
      timer = setTimeout(loop, 1);
      await work(run);
      // Samples are taken on timers: a block is recorded once a later turn of the loop has run them.
      await nextTurn();
      await nextTurn();
      sample();
    } finally {
      clearTimeout(timer);
      histogram.disable();
    }
    results.push({ delayMs: histogram.max / 1e6, blockCpuMs: longest });
  }
  const blocks = results.map((r) => r.blockCpuMs);
  return {
    maxDelayMs: Math.min(...results.map((r) => r.delayMs)),
    longestBlockCpuMs: blocks.some((b) => b === undefined) ? undefined : Math.min(...(blocks as number[])),
    runs: results,
  };
}

/** How a test reads the figures: the longest block's CPU where it is known, else the delay. */
export function describeDelays(delays: EventLoopDelays): string {
  return delays.runs.map((r) => `${r.delayMs.toFixed(1)} ms delay${r.blockCpuMs === undefined ? '' : ` / ${r.blockCpuMs} ms CPU`}`).join(', ');
}
