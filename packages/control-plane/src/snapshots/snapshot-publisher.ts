import { compileSnapshot, SnapshotInvalidError } from '@ensign/engine';
import type { CompileOptions, CompiledSnapshot, HashMode, NamespaceSnapshot, SnapshotDocument } from '@ensign/engine';
import type { NamespaceChange, NamespaceRevision, NamespaceState } from '@ensign/store';
import type { Logger } from 'pino';
import { buildNamespaceSnapshot } from './snapshot-builder.js';
import type { SnapshotSink } from './snapshot-sink.js';

/** What the publisher reads from storage (the SQL store provides it). */
export interface SnapshotStateReader {
  /** A namespace's whole state at one revision; undefined when it does not exist. */
  readNamespaceState(namespaceKey: string): Promise<NamespaceState | undefined>;
  listNamespaceRevisions(): Promise<NamespaceRevision[]>;
}

export interface SnapshotPublisherOptions {
  store: SnapshotStateReader;
  sink: SnapshotSink;
  hash: HashMode;
  logger: Logger;
  /** The engine's `compileSnapshot` unless replaced. */
  compile?: (document: SnapshotDocument, options: CompileOptions) => CompiledSnapshot;
}

/** How many namespaces `loadAll` reads at once. */
const LOAD_CONCURRENCY = 4;

/** The publishing state of one namespace. */
interface Lane {
  /** Notifications received. */
  requested: number;
  /** Notifications that a finished rebuild has covered. */
  handled: number;
  running: boolean;
  /** The newest revision handed to the sink (put or removed); -1 before any. */
  published: number;
  /** The newest revision at which the namespace was deleted, if it was. */
  deletedAt: number | undefined;
  waiters: Array<{ target: number; resolve: () => void }>;
}

/**
 * Rebuilds and publishes a namespace's compiled snapshot after its writes commit. Rebuilds of
 * one namespace run one at a time and read the latest state, so a burst of commits costs at most
 * one more rebuild and a sink never gets an older revision after a newer one. A failed read or
 * compile is logged and leaves the previous snapshot in place; the next commit tries again.
 */
export class SnapshotPublisher {
  private readonly lanes = new Map<string, Lane>();
  private readonly compile: (document: SnapshotDocument, options: CompileOptions) => CompiledSnapshot;
  private readonly compileOptions: CompileOptions;

  constructor(private readonly options: SnapshotPublisherOptions) {
    this.compile = options.compile ?? compileSnapshot;
    this.compileOptions = { hash: options.hash };
  }

  /** Hears of a committed write; wire it as the store's `onCommit` (see `CommitRelay`). Never throws. */
  readonly notify = (change: NamespaceChange): void => {
    const lane = this.laneOf(change.namespaceKey);
    if (change.deleted) lane.deletedAt = Math.max(lane.deletedAt ?? -1, change.revision);
    this.request(change.namespaceKey, lane);
  };

  /** Publishes every namespace, as at start-up; rejects only when the namespaces cannot be listed. */
  async loadAll(): Promise<void> {
    const namespaces = await this.options.store.listNamespaceRevisions();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < namespaces.length) {
        const key = (namespaces[next++] as NamespaceRevision).key;
        const lane = this.laneOf(key);
        await this.whenHandled(lane, this.request(key, lane));
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOAD_CONCURRENCY, namespaces.length) }, worker));
    this.options.logger.info({ namespaces: namespaces.length }, 'snapshots loaded');
  }

  /** Resolves once every notification received so far has been published (or has failed and been logged). */
  async settled(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => this.whenHandled(lane, lane.requested)));
  }

  private laneOf(key: string): Lane {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { requested: 0, handled: 0, running: false, published: -1, deletedAt: undefined, waiters: [] };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** Asks for a rebuild of the namespace; returns the request's number for `whenHandled`. */
  private request(key: string, lane: Lane): number {
    lane.requested += 1;
    if (!lane.running) void this.drain(key, lane);
    return lane.requested;
  }

  private whenHandled(lane: Lane, target: number): Promise<void> {
    if (lane.handled >= target) return Promise.resolve();
    return new Promise((resolve) => lane.waiters.push({ target, resolve }));
  }

  /** Rebuilds until every request so far is covered; each rebuild covers all requests made before it read. */
  private async drain(key: string, lane: Lane): Promise<void> {
    lane.running = true;
    try {
      while (lane.handled < lane.requested) {
        const covers = lane.requested;
        await this.rebuild(key, lane);
        lane.handled = covers;
        const waiting = lane.waiters;
        lane.waiters = waiting.filter((w) => w.target > covers);
        for (const w of waiting) if (w.target <= covers) w.resolve();
      }
    } finally {
      lane.running = false;
    }
  }

  /** Reads, builds, compiles and hands over one namespace; failures are logged, never thrown. */
  private async rebuild(key: string, lane: Lane): Promise<void> {
    const { logger, sink } = this.options;
    let state: NamespaceState | undefined;
    try {
      state = await this.options.store.readNamespaceState(key);
    } catch (err) {
      logger.error({ err, namespace: key }, 'snapshot not rebuilt: reading the namespace failed; the previous snapshot stays');
      return;
    }
    if (state === undefined) {
      // Gone: remove it once its delete has been announced (that notification follows if not yet).
      const deletedAt = lane.deletedAt;
      if (deletedAt !== undefined && deletedAt > lane.published) {
        if (this.handOver(key, deletedAt, () => sink.remove(key, deletedAt))) lane.published = deletedAt;
      }
      return;
    }
    if (state.revision <= lane.published) return;

    let snapshot: NamespaceSnapshot;
    let compiled: CompiledSnapshot;
    try {
      snapshot = buildNamespaceSnapshot(state);
      compiled = this.compile(snapshot.document, this.compileOptions);
    } catch (err) {
      const paths = err instanceof SnapshotInvalidError ? err.paths : undefined;
      logger.error(
        { err, namespace: key, revision: state.revision, ...(paths === undefined ? {} : { paths }) },
        'snapshot not published: the namespace does not compile; the previous snapshot stays',
      );
      return;
    }
    if (this.handOver(key, state.revision, () => sink.put(snapshot, compiled))) lane.published = state.revision;
  }

  /** Gives the sink one snapshot or removal; false (logged) when the sink threw. */
  private handOver(key: string, revision: number, give: () => void): boolean {
    try {
      give();
      this.options.logger.debug({ namespace: key, revision }, 'snapshot published');
      return true;
    } catch (err) {
      this.options.logger.error({ err, namespace: key, revision }, 'snapshot not published: the sink failed');
      return false;
    }
  }
}
