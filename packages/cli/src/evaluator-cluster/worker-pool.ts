/**
 * The workers of `ensign evaluator --workers N`, forked with node:cluster: the primary holds the
 * HTTP and gRPC ports and hands each connection to a worker, so a worker that dies takes only its
 * own connections with it while the others keep answering, and a replacement is forked in its slot.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { isWorkerMessage, WORKER_SLOT_ENV, type WorkerMessage } from './cluster-messages.js';

/** Beyond the shutdown timeout, how long workers get for their last evaluation counts and connections before they are killed. */
export const STOP_GRACE_MS = 10_000;
/** A worker that dies before it answers is replaced after a delay doubling from 1 s up to this. */
const MAX_RESTART_DELAY_MS = 30_000;

interface Slot {
  readonly slot: number;
  worker: Worker | undefined;
  ready: boolean;
  /** Replacements in a row that died before answering. */
  failures: number;
  timer: NodeJS.Timeout | undefined;
}

export interface WorkerPoolOptions {
  count: number;
  logger: Logger;
  /** Every message of a worker besides `ready`. */
  onMessage(worker: Worker, message: WorkerMessage): void;
  /** A worker is gone (its pending exchanges will never be answered). */
  onExit(worker: Worker): void;
}

export class WorkerPool {
  /** Workers that exited while serving and were replaced. */
  restarts = 0;
  /** The address the workers listen on, once one is ready. */
  address: string | undefined;
  private readonly slots: Slot[];
  private stopping = false;
  private starting: { resolve: () => void; reject: (err: Error) => void } | undefined;

  constructor(private readonly options: WorkerPoolOptions) {
    this.slots = Array.from({ length: options.count }, (_, i) => ({ slot: i + 1, worker: undefined, ready: false, failures: 0, timer: undefined }));
  }

  /** Forks every worker; resolves once each answers, rejects when one exits before that. */
  start(): Promise<void> {
    const started = new Promise<void>((resolve, reject) => (this.starting = { resolve, reject }));
    for (const slot of this.slots) this.fork(slot);
    return started;
  }

  /** The workers answering now. */
  answering(): Worker[] {
    return this.slots.flatMap((s) => (s.ready && s.worker !== undefined ? [s.worker] : []));
  }

  /**
   * Asks every worker to drain and exit (each within `timeoutMs`, as on SIGTERM); kills those still
   * running `STOP_GRACE_MS` later. Rejects naming the workers that did not exit 0.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    const exits: Array<Promise<string | undefined>> = [];
    for (const slot of this.slots) {
      clearTimeout(slot.timer);
      const { worker } = slot;
      if (worker === undefined) continue;
      exits.push(this.stopOne(slot.slot, worker, timeoutMs + STOP_GRACE_MS));
    }
    const failed = (await Promise.all(exits)).filter((f): f is string => f !== undefined);
    if (failed.length > 0) throw new Error(failed.join('; '));
  }

  private async stopOne(slot: number, worker: Worker, deadlineMs: number): Promise<string | undefined> {
    if (worker.process.exitCode !== null || worker.process.signalCode !== null) return undefined;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => worker.once('exit', (code, signal) => resolve({ code, signal })));
    // Without the channel (closing as the worker dies) it is told by signal instead.
    worker.send({ ensign: 'stop' }, (err: Error | null) => {
      if (err) worker.process.kill('SIGTERM');
    });
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), deadlineMs);
    const { code, signal } = await exited;
    clearTimeout(timer);
    return code === 0 ? undefined : `worker ${slot} (pid ${worker.process.pid}) exited with ${signal ?? `code ${code}`}`;
  }

  private fork(slot: Slot): void {
    slot.timer = undefined;
    slot.ready = false;
    const worker = cluster.fork({ [WORKER_SLOT_ENV]: String(slot.slot) });
    slot.worker = worker;
    const { logger } = this.options;
    worker.on('message', (message: unknown) => {
      if (!isWorkerMessage(message)) return;
      if (message.ensign !== 'ready') {
        this.options.onMessage(worker, message);
        return;
      }
      // A worker stopped while it waited for its initial sync listens a moment on its way out.
      if (this.stopping) return;
      slot.ready = true;
      slot.failures = 0;
      this.address ??= message.address;
      logger.info({ worker: slot.slot, workerPid: worker.process.pid }, 'evaluator worker answering');
      if (this.starting !== undefined && this.slots.every((s) => s.ready)) {
        this.starting.resolve();
        this.starting = undefined;
      }
    });
    worker.once('exit', (code, signal) => {
      const wasReady = slot.ready;
      slot.ready = false;
      if (slot.worker === worker) slot.worker = undefined;
      this.options.onExit(worker);
      if (this.stopping) return;
      const how = signal ?? `code ${code}`;
      if (this.starting !== undefined) {
        this.starting.reject(new Error(`worker ${slot.slot} (pid ${worker.process.pid}) exited with ${how} before it answered`));
        this.starting = undefined;
        this.stopping = true;
        return;
      }
      this.restarts++;
      slot.failures = wasReady ? 0 : slot.failures + 1;
      const delayMs = slot.failures === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (slot.failures - 1));
      logger.warn({ worker: slot.slot, workerPid: worker.process.pid, exit: how, restartInMs: delayMs }, `evaluator worker ${slot.slot} exited with ${how}; starting a replacement`);
      slot.timer = setTimeout(() => this.fork(slot), delayMs);
    });
  }
}
