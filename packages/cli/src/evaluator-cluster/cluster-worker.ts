/**
 * A worker's side of `ensign evaluator --workers N`: it is told to stop by the primary (or stops
 * when the primary is gone, which held its ports), says when it answers, and serves `/metrics` as
 * the sum of every worker's, gathered by the primary, since a scrape reaches one worker only.
 */
import cluster from 'node:cluster';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestTally } from '@ensign/evaluator';
import { Counter, type Registry } from 'prom-client';
import { isPrimaryMessage, type PrimaryMessage, WORKER_SLOT_ENV, type WorkerMessage } from './cluster-messages.js';

/** How often a starting worker looks whether its initial sync is done. */
const SYNC_POLL_MS = 20;
/** How long a scrape waits for the primary's sum before it answers 503. */
const METRICS_WAIT_MS = 5_000;

type Next = () => void;
type Route = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

export interface ClusterWorker {
  /** This worker's slot, 1…N, as its log lines and metrics name it. */
  readonly slot: string;
  /** Resolves when the primary asks this worker to stop, or is gone. */
  readonly stopRequested: Promise<string>;
  /**
   * Resolves once `ready()` holds (polled), or `stop` resolves: a worker listens only once it holds
   * the bucket's snapshots, so the connections handed to a replacement are never answered 503
   * while the other workers could answer them.
   */
  synced(ready: () => boolean, stop: Promise<unknown>): Promise<void>;
  /** Tells the primary that every listener is up. */
  ready(address: string): void;
  /**
   * `GET /metrics` answered with every worker's metrics summed; `registry` (this worker's, given
   * its share of requests as `ensign_evaluator_worker_requests_total{worker,pid}`) is what the
   * primary gathers from it.
   */
  metricsRoute(registry: Registry, requests: RequestTally | undefined): Route;
  /** Lets the process exit once its work is done (the channel to the primary no longer holds it). */
  leave(): void;
}

/** Sends to the primary; once the channel has closed (the primary gone) there is no one to tell. */
function send(message: WorkerMessage): void {
  if (process.connected) process.send?.(message, undefined, {}, () => undefined);
}

/** The worker's side, or undefined in a process that is not a cluster worker. */
export function joinCluster(): ClusterWorker | undefined {
  if (!cluster.isWorker) return undefined;
  const slot = process.env[WORKER_SLOT_ENV] ?? String(cluster.worker?.id ?? 0);
  let stop!: (reason: string) => void;
  const stopRequested = new Promise<string>((resolve) => (stop = resolve));
  const answers = new Map<number, (message: Extract<PrimaryMessage, { ensign: 'metrics' }>) => void>();
  let registry: Registry | undefined;

  process.on('message', (message: unknown) => {
    if (!isPrimaryMessage(message)) return;
    if (message.ensign === 'stop') stop('stop from the primary');
    else if (message.ensign === 'metrics') answers.get(message.id)?.(message);
    else if (message.ensign === 'metrics-part-wanted' && registry !== undefined) {
      const { id } = message;
      registry.getMetricsAsJSON().then(
        (metrics) => send({ ensign: 'metrics-part', id, metrics }),
        () => send({ ensign: 'metrics-part', id, metrics: [] }),
      );
    }
  });
  // Without the primary the ports are gone: nothing can reach this worker any more.
  process.once('disconnect', () => stop('primary gone'));

  let nextId = 0;
  const summed = (): Promise<Extract<PrimaryMessage, { ensign: 'metrics' }>> =>
    new Promise((resolve) => {
      const id = ++nextId;
      const timer = setTimeout(() => finish({ ensign: 'metrics', id, error: 'the primary did not answer in time' }), METRICS_WAIT_MS);
      const finish = (message: Extract<PrimaryMessage, { ensign: 'metrics' }>): void => {
        clearTimeout(timer);
        answers.delete(id);
        resolve(message);
      };
      answers.set(id, finish);
      send({ ensign: 'metrics-wanted', id });
    });

  return {
    slot,
    stopRequested,
    async synced(ready, stop) {
      let stopped = false;
      void stop.then(() => (stopped = true));
      while (!ready() && !stopped) await new Promise((resolve) => setTimeout(resolve, SYNC_POLL_MS));
    },
    ready: (address) => send({ ensign: 'ready', address }),
    metricsRoute(own, requests) {
      registry = own;
      if (requests !== undefined) {
        const labels = { worker: slot, pid: String(process.pid) };
        new Counter({
          name: 'ensign_evaluator_worker_requests_total',
          help: 'HTTP requests and gRPC calls each worker of ensign evaluator --workers answered, by worker slot and pid.',
          labelNames: ['worker', 'pid'],
          registers: [own],
          collect() {
            this.reset();
            this.inc(labels, requests.answered());
          },
        });
      }
      return (req, res, next) => {
        if ((req.url ?? '/').split('?')[0] !== '/metrics' || req.method !== 'GET') {
          next();
          return;
        }
        void summed().then((answer) => {
          const body = 'body' in answer ? answer.body : `metrics failed: ${answer.error}\n`;
          const status = 'body' in answer ? 200 : 503;
          res.writeHead(status, { 'Content-Type': 'body' in answer ? answer.contentType : 'text/plain', 'Content-Length': Buffer.byteLength(body) });
          res.end(body);
        });
      };
    },
    leave() {
      process.channel?.unref();
    },
  };
}
