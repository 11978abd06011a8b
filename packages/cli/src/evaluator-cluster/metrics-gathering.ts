/**
 * The primary's side of `/metrics` under `ensign evaluator --workers N`: a scrape reaches one
 * worker, which asks the primary; the primary asks every answering worker for its registry (as
 * JSON) and sums them with prom-client's `AggregatorRegistry.aggregate` (counters and histograms
 * added, each gauge by its own aggregator), with the primary's own worker metrics beside them.
 */
import type { Worker } from 'node:cluster';
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import type { MetricsJson, WorkerMessage } from './cluster-messages.js';

/** A worker that has not sent its metrics by then is left out of that scrape. */
const PART_WAIT_MS = 3_000;

interface Gathering {
  parts: MetricsJson[];
  waiting: Set<number>;
  done(): void;
}

export interface GatheredWorkers {
  answering(): Worker[];
  readonly restarts: number;
}

export class MetricsGathering {
  private readonly own = new Registry();
  private readonly gatherings = new Map<number, Gathering>();
  private nextId = 0;

  constructor(private readonly workers: GatheredWorkers) {
    const registers = [this.own];
    new Gauge({
      name: 'ensign_evaluator_workers',
      help: 'Workers of ensign evaluator --workers answering now.',
      registers,
      collect() {
        this.set(workers.answering().length);
      },
    });
    new Counter({
      name: 'ensign_evaluator_worker_restarts_total',
      help: 'Workers that exited while serving and were replaced.',
      registers,
      collect() {
        this.reset();
        this.inc(workers.restarts);
      },
    });
  }

  /** Handles a worker's `metrics-wanted` (answers it with the sum) and `metrics-part` messages. */
  onMessage(worker: Worker, message: WorkerMessage): void {
    if (message.ensign === 'metrics-part') {
      const gathering = this.gatherings.get(message.id);
      if (gathering === undefined || !gathering.waiting.delete(worker.id)) return;
      gathering.parts.push(message.metrics);
      if (gathering.waiting.size === 0) gathering.done();
    } else if (message.ensign === 'metrics-wanted') {
      const { id } = message;
      this.summed().then(
        (body) => this.reply(worker, { ensign: 'metrics', id, body, contentType: this.own.contentType }),
        (err: unknown) => this.reply(worker, { ensign: 'metrics', id, error: (err as Error).message }),
      );
    }
  }

  /** A worker that exited is waited for no more. */
  forget(worker: Worker): void {
    for (const gathering of this.gatherings.values()) if (gathering.waiting.delete(worker.id) && gathering.waiting.size === 0) gathering.done();
  }

  /** Every answering worker's metrics and the primary's, summed, in Prometheus' text format. */
  async summed(): Promise<string> {
    const parts = await this.gather();
    return AggregatorRegistry.aggregate([...parts, await this.own.getMetricsAsJSON()]).metrics();
  }

  private gather(): Promise<MetricsJson[]> {
    const workers = this.workers.answering().filter((w) => w.isConnected());
    if (workers.length === 0) return Promise.resolve([]);
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const gathering: Gathering = {
        parts: [],
        waiting: new Set(workers.map((w) => w.id)),
        done: () => {
          clearTimeout(timer);
          this.gatherings.delete(id);
          resolve(gathering.parts);
        },
      };
      const timer = setTimeout(() => gathering.done(), PART_WAIT_MS);
      this.gatherings.set(id, gathering);
      // A worker whose channel closed meanwhile is waited for no more (the callback keeps the error from crashing the primary).
      for (const worker of workers) {
        worker.send({ ensign: 'metrics-part-wanted', id }, (err: Error | null) => {
          if (err) this.forget(worker);
        });
      }
    });
  }

  private reply(worker: Worker, message: unknown): void {
    // The asking worker may be gone by now; nothing is left to answer.
    if (worker.isConnected()) worker.send(message as object, () => undefined);
  }
}
