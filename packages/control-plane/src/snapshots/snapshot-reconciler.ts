import { compileSnapshot } from '@ensign/engine';
import type { CompileOptions, CompiledSnapshot, HashMode, NamespaceSnapshot, SnapshotDocument } from '@ensign/engine';
import type { Logger } from 'pino';
import { buildNamespaceSnapshot } from './snapshot-builder.js';
import type { SnapshotStateReader } from './snapshot-publisher.js';

/** What the reconciler needs of the snapshot bus (`@ensign/bus`'s `SnapshotBus` has it). */
export interface ReconciledBus {
  revisions(): Promise<Map<string, number>>;
  publish(snapshot: NamespaceSnapshot): Promise<void>;
  remove(namespaceKey: string, revision: number): Promise<void>;
}

export interface SnapshotReconcilerOptions {
  store: SnapshotStateReader;
  bus: ReconciledBus;
  hash: HashMode;
  /** Pause between two passes. */
  intervalMs: number;
  logger: Logger;
  /** The engine's `compileSnapshot` unless replaced. */
  compile?: (document: SnapshotDocument, options: CompileOptions) => CompiledSnapshot;
}

/** What one pass changed in the bucket. */
export interface ReconcileResult {
  republished: string[];
  removed: string[];
}

/**
 * Heals the bucket when a publish was lost (a crash between commit and publish, NATS down): at
 * start-up and every interval it republishes each namespace whose bucket revision lags the
 * database or is missing, and removes entries of namespaces that no longer exist.
 */
export class SnapshotReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly compile: (document: SnapshotDocument, options: CompileOptions) => CompiledSnapshot;

  constructor(private readonly options: SnapshotReconcilerOptions) {
    this.compile = options.compile ?? compileSnapshot;
  }

  /** Runs a pass now and then one every interval, never two at once; failures are logged. */
  start(): void {
    this.stopped = false;
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
        if (await this.republish(key)) result.republished.push(key);
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

  /** Reads, builds and publishes one namespace; false when it is gone or does not compile (logged). */
  private async republish(key: string): Promise<boolean> {
    const state = await this.options.store.readNamespaceState(key);
    if (state === undefined) return false;
    const snapshot = buildNamespaceSnapshot(state);
    try {
      this.compile(snapshot.document, { hash: this.options.hash });
    } catch (err) {
      this.options.logger.error({ err, namespace: key, revision: state.revision }, 'reconcile skipped a namespace that does not compile');
      return false;
    }
    await this.options.bus.publish(snapshot);
    return true;
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
          this.schedule(this.options.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
