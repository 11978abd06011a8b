/**
 * Keeps the database a mirror of the feature files: reads every state file at start and whenever
 * the source may have changed (watch events, debounced; every poll interval), and hands a set that
 * differs from the last one read to the applier. A set that cannot be applied leaves the last good
 * state serving and is reported (a warning, the status, the sync listeners); at start it is fatal.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { DeclarativeError } from './declarative-error.js';
import type { FeatureSource } from './feature-source.js';
import { readStateFiles, type StateFile } from './state-files.js';

/** What applying a set of files changed. */
export interface ApplyResult {
  /** Namespaces written because their content changed. */
  applied: string[];
  /** Namespaces no file declares any more, deleted (or, for `default`, emptied). */
  removed: string[];
}

/** Turns a set of state files into the database's content; throws DeclarativeError when the set is invalid. */
export interface FeatureApplier {
  apply(files: readonly StateFile[]): Promise<ApplyResult>;
}

/** How one look at the source ended. */
export type SyncOutcome = 'applied' | 'unchanged' | 'invalid' | 'error';

/** What `/health` and `/meta/info` say about the storage. */
export interface DeclarativeStatus {
  type: 'local' | 'git';
  /** The path, or the repository, ref and directory. */
  metadata: Readonly<Record<string, string>>;
  /** The state being served: the git commit, or a digest of a directory's state files. */
  revision?: string;
  /** When the source was last read and found valid (applied, or unchanged). */
  lastSync?: Date;
  /** Why the latest look at the source failed; cleared by the next success. */
  lastError?: { message: string; file?: string; path?: string; at: Date };
}

export interface DeclarativeStorageOptions {
  source: FeatureSource;
  applier: FeatureApplier;
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>;
  /** How long a burst of file events is let settle before the files are read; 250 ms by default. */
  debounceMs?: number;
  now?: () => Date;
}

/** A digest of the state files (paths and contents), to tell a changed directory from an unchanged one. */
function digestOf(files: readonly StateFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`\0${file.path}\0${file.content.length}\0`);
    hash.update(file.content);
  }
  return hash.digest('hex').slice(0, 16);
}

export class DeclarativeStorage {
  private readonly listeners: Array<(outcome: SyncOutcome, status: DeclarativeStatus) => void> = [];
  private readonly debounceMs: number;
  private readonly now: () => Date;
  private state: DeclarativeStatus;
  /** The revision (or digest) last read, valid or not: the same one is not applied again. */
  private lastSeen: string | undefined;
  /** Why the set last read was refused; undefined when it was applied. */
  private lastSeenError: DeclarativeStatus['lastError'];
  private running: Promise<void> | undefined;
  private queued = false;
  private stopped = false;
  /** Whether a good state is being served (the first sync succeeded). */
  private started = false;
  private debounce: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly options: DeclarativeStorageOptions) {
    this.debounceMs = options.debounceMs ?? 250;
    this.now = options.now ?? (() => new Date());
    this.state = { type: options.source.type, metadata: options.source.metadata };
  }

  /** Opens the source and applies it once; rejects (with the reason) when that fails. Then follows it. */
  async start(): Promise<void> {
    await this.options.source.open();
    const outcome = await this.sync();
    if (outcome === 'invalid' || outcome === 'error') {
      await this.options.source.close();
      const error = this.state.lastError;
      throw new DeclarativeError(`the ${this.state.type} storage cannot be served: ${error?.message ?? 'unknown error'}`);
    }
    this.started = true;
    this.unwatch = this.options.source.watch?.(() => this.changed());
    this.schedulePoll();
  }

  /** Stops following the source and waits for a sync in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.debounce);
    clearTimeout(this.poll);
    this.unwatch?.();
    await this.running;
    await this.options.source.close();
  }

  status(): DeclarativeStatus {
    return { ...this.state };
  }

  /** Hears how each look at the source ended (for the metrics). */
  onSync(listener: (outcome: SyncOutcome, status: DeclarativeStatus) => void): void {
    this.listeners.push(listener);
  }

  /** Looks at the source now (a sync in progress is followed by one more); resolves when done. */
  request(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== undefined) {
      this.queued = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.queued = false;
        await this.sync();
      } while (this.queued && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private changed(): void {
    if (this.stopped) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.request(), this.debounceMs);
    this.debounce.unref();
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.poll = setTimeout(() => {
      void this.request().finally(() => this.schedulePoll());
    }, this.options.source.pollIntervalMs);
    this.poll.unref();
  }

  /** One look at the source; never throws. */
  private async sync(): Promise<SyncOutcome> {
    const outcome = await this.syncOnce();
    for (const listener of this.listeners) listener(outcome, this.status());
    return outcome;
  }

  private async syncOnce(): Promise<SyncOutcome> {
    const { source, applier, logger } = this.options;
    let revision: string | undefined;
    try {
      const snapshot = await source.current();
      if (snapshot.revision !== undefined && snapshot.revision === this.lastSeen) return this.unchanged();
      const { files } = await readStateFiles(await snapshot.tree());
      revision = snapshot.revision ?? digestOf(files);
      if (revision === this.lastSeen) return this.unchanged();
      const result = await applier.apply(files);
      this.lastSeen = revision;
      this.lastSeenError = undefined;
      this.state = { ...this.state, revision, lastSync: this.now() };
      delete this.state.lastError;
      const changed = result.applied.length > 0 || result.removed.length > 0;
      logger.info({ storage: source.type, revision, files: files.length, applied: result.applied, removed: result.removed }, changed ? 'feature files applied' : 'feature files read; no namespace changed');
      return 'applied';
    } catch (err) {
      const invalid = err instanceof DeclarativeError;
      const file = invalid ? err.file : undefined;
      const path = invalid ? err.path : undefined;
      const message = err instanceof Error ? err.message : String(err);
      const lastError = { message, ...(file === undefined ? {} : { file }), ...(path === undefined ? {} : { path }), at: this.now() };
      // The same invalid set is not reported again; an unreachable remote or database is retried.
      if (invalid && revision !== undefined) {
        this.lastSeen = revision;
        this.lastSeenError = lastError;
      }
      this.state = { ...this.state, lastError };
      // At start there is no good state yet: start() fails with the reason instead.
      if (this.started) logger.warn({ storage: source.type, ...(revision === undefined ? {} : { revision }), file, path, reason: message }, `feature files not applied, the last good state keeps serving: ${message}`);
      return invalid ? 'invalid' : 'error';
    }
  }

  /** The source holds the set last read: served (and so in sync), or still refused for the same reason. */
  private unchanged(): SyncOutcome {
    if (this.lastSeenError === undefined) {
      this.state = { ...this.state, lastSync: this.now() };
      delete this.state.lastError;
    } else {
      this.state = { ...this.state, lastError: this.lastSeenError };
    }
    return 'unchanged';
  }
}
