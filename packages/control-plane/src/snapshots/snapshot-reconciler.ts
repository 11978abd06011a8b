import type { Logger } from 'pino';
import type { SnapshotStateReader } from './snapshot-pipeline.js';

/** What the reconciler needs of the snapshot bus (`@ensign/bus`'s `SnapshotBus` has it). */
export interface ReconciledBus {
  /** The newest revision the bucket holds per namespace. */
  revisions(): Promise<Map<string, number>>;
  remove(namespaceKey: string, revision: number): Promise<void>;
}

export interface SnapshotReconcilerOptions {
  store: Pick<SnapshotStateReader, 'listNamespaceRevisions'>;
  bus: ReconciledBus;
  /** Puts one namespace's current state into the bucket as a hydration. */
  republish: (namespaceKey: string, storedRevision: number) => Promise<void>;
  /** Pause between two passes. */
  intervalMs: number;
  logger: Logger;
}

/** What one pass changed in the bucket. */
export interface ReconcileResult {
  republished: string[];
  removed: string[];
}

/**
 * Heals the bucket when a publish was lost (a crash between commit and publish, NATS down): at
 * start-up, every interval and whenever asked (NATS is back), it republishes each namespace whose
 * newest bucket revision lags the database or is missing, and removes namespaces that no longer exist.
 */
export class SnapshotReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly options: SnapshotReconcilerOptions) {}

  /** Runs a pass now and then one every interval, never two at once; failures are logged. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Runs a pass as soon as the one in progress (if any) ends. */
  soon(): void {
    if (this.stopped) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  /** Stops the loop and waits (at most `waitMs`) for a pass in progress, which may be waiting for NATS. */
  async stop(waitMs = 2000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.running === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  /** One pass. The bucket is read before the database, so a namespace deleted from the database meanwhile is the only kind removed. */
  async reconcileOnce(): Promise<ReconcileResult> {
    const { store, bus, logger } = this.options;
    const published = await bus.revisions();
    const stored = await store.listNamespaceRevisions();
    const result: ReconcileResult = { republished: [], removed: [] };
    const existing = new Set<string>();
    for (const { key, revision } of stored) {
      existing.add(key);
      if ((published.get(key) ?? -1) >= revision) continue;
      try {
        await this.options.republish(key, revision);
        result.republished.push(key);
      } catch (err) {
        logger.error({ err, namespace: key }, 'reconcile could not republish a namespace; next pass retries');
      }
    }
    for (const [key, revision] of published) {
      if (existing.has(key)) continue;
      try {
        await bus.remove(key, revision);
        result.removed.push(key);
      } catch (err) {
        logger.error({ err, namespace: key }, 'reconcile could not remove a deleted namespace; next pass retries');
      }
    }
    if (result.republished.length > 0 || result.removed.length > 0) logger.info(result, 'snapshot bucket reconciled');
    return result;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.reconcileOnce()
        .then(
          () => undefined,
          (err: unknown) => this.options.logger.warn({ err }, 'snapshot reconcile failed; next pass retries'),
        )
        .finally(() => {
          this.running = undefined;
          const now = this.again;
          this.again = false;
          this.schedule(now ? 0 : this.options.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
