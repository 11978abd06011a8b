/**
 * Servers sharing one database agree without a bus: every interval the namespaces' revisions are
 * read (one small query) and what changed elsewhere (another server, `ensign import`, a second
 * process on an SQLite file) is caught up by the pipeline, so it is served within one interval.
 * With NATS the bucket usually brings such changes first and the poll finds nothing to do.
 */
import { PeriodicTask } from '@ensign/core';
import type { NamespaceRevision } from '@ensign/store';
import type { Logger } from 'pino';
import type { SnapshotPipeline, SnapshotStateReader } from './snapshot-pipeline.js';

export interface RevisionPollOptions {
  store: Pick<SnapshotStateReader, 'listNamespaceRevisions'>;
  pipeline: Pick<SnapshotPipeline, 'catchUp' | 'heldRevisions'>;
  intervalMs: number;
  logger: Logger;
  /** Hears each namespace whose stored revision moved since the previous poll (or that went away), whoever wrote it. */
  onStoredChange?: (namespaceKey: string) => void;
}

export class RevisionPoll {
  /** Namespaces caught up from the database (read whole or dropped), and polls that failed. */
  readonly counts = { caughtUp: 0, failed: 0 };
  private readonly task: PeriodicTask;
  private previous: Map<string, number> | undefined;
  private failing = false;

  constructor(private readonly options: RevisionPollOptions) {
    this.task = new PeriodicTask(options.intervalMs, () => this.pollOnce(), (err) => this.failed(err));
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One poll; resolves the namespaces it changed here. */
  async pollOnce(): Promise<string[]> {
    const { store, pipeline, logger } = this.options;
    const heldBefore = pipeline.heldRevisions();
    const stored = await store.listNamespaceRevisions();
    if (this.failing) {
      this.failing = false;
      logger.info('namespace revisions read again from the database');
    }
    this.announce(stored, heldBefore);
    const changed = await pipeline.catchUp(stored, heldBefore);
    this.counts.caughtUp += changed.length;
    if (changed.length > 0) logger.debug({ namespaces: changed }, 'namespaces changed in the database caught up');
    return changed;
  }

  /**
   * Tells `onStoredChange` what moved since the previous poll (the first poll only takes note) and
   * was not held here before the query: what this process wrote or was sent it has already heard of,
   * and telling it again would evict entries other servers cached since.
   */
  private announce(stored: readonly NamespaceRevision[], heldBefore: ReadonlyMap<string, number>): void {
    const now = new Map(stored.map((n) => [n.key, n.revision]));
    const before = this.previous;
    this.previous = now;
    const listener = this.options.onStoredChange;
    if (before === undefined || listener === undefined) return;
    for (const [key, revision] of now) if (before.get(key) !== revision && (heldBefore.get(key) ?? -1) < revision) listener(key);
    for (const key of before.keys()) if (!now.has(key) && heldBefore.has(key)) listener(key);
  }

  /** An outage is logged once, not every interval. */
  private failed(err: unknown): void {
    this.counts.failed++;
    if (this.failing) return;
    this.failing = true;
    this.options.logger.warn({ err }, 'reading the namespace revisions failed; changes made through other servers wait until the database answers');
  }
}
