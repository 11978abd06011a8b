import type { SnapshotBus, SnapshotChange, SnapshotWatch } from '@ensign/bus';
import { compileSnapshot, SnapshotInvalidError } from '@ensign/engine';
import type { CompileOptions, CompiledSnapshot, HashMode, NamespaceSnapshot, SnapshotDocument } from '@ensign/engine';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { HeldSnapshot, SnapshotSource } from './snapshot-source.js';

/** What the source needs of the bus: only its watch (it never writes). */
export type SnapshotWatcher = Pick<SnapshotBus, 'watch'>;

export interface NatsSnapshotSourceOptions {
  bus: SnapshotWatcher;
  hash: HashMode;
  /** Most namespaces held; the least recently used one is dropped first. */
  maxNamespaces: number;
  logger: Logger;
  /** The engine's `compileSnapshot` unless replaced. */
  compile?: (document: SnapshotDocument, options: CompileOptions) => CompiledSnapshot;
  /** Epoch milliseconds; `Date.now` when not set. */
  now?: () => number;
}

/** What `/health` reports of one held namespace. */
export interface HeldNamespaceStatus {
  revision: number;
  /** When this revision was taken, epoch milliseconds. */
  receivedAt: number;
}

interface Entry extends HeldSnapshot {
  receivedAt: number;
}

/**
 * The scaled-out evaluator's source: follows the snapshot bucket (every namespace, then each change),
 * compiles what arrives and holds the compiled namespaces in a bounded LRU cache. A snapshot not
 * newer than the one held is ignored, and one that does not compile never replaces a good one.
 */
export class NatsSnapshotSource implements SnapshotSource {
  private readonly held: LRUCache<string, Entry>;
  private readonly compile: (document: SnapshotDocument, options: CompileOptions) => CompiledSnapshot;
  private readonly now: () => number;
  private synced = false;
  private watching: SnapshotWatch | undefined;

  constructor(private readonly options: NatsSnapshotSourceOptions) {
    this.held = new LRUCache<string, Entry>({ max: options.maxNamespaces });
    this.compile = options.compile ?? compileSnapshot;
    this.now = options.now ?? Date.now;
  }

  /** Starts following the bucket; returns at once (the bus connects and retries in the background). */
  async start(): Promise<void> {
    this.watching = await this.options.bus.watch(
      (change) => this.apply(change),
      () => {
        this.synced = true;
        this.options.logger.info({ namespaces: this.held.size }, 'evaluation snapshots synced');
      },
    );
  }

  async stop(): Promise<void> {
    await this.watching?.stop();
    this.watching = undefined;
  }

  get(namespaceKey: string): HeldSnapshot | undefined {
    return this.held.get(namespaceKey);
  }

  ready(): boolean {
    return this.synced;
  }

  /** Revision and arrival time of every namespace held, without touching their recency. */
  namespaces(): Map<string, HeldNamespaceStatus> {
    const out = new Map<string, HeldNamespaceStatus>();
    for (const [key, entry] of this.held.entries()) out.set(key, { revision: entry.snapshot.revision, receivedAt: entry.receivedAt });
    return out;
  }

  private apply(change: SnapshotChange): void {
    if (change.kind === 'delete') {
      if (this.held.delete(change.namespaceKey)) this.options.logger.debug({ namespace: change.namespaceKey }, 'namespace dropped');
      return;
    }
    this.put(change.snapshot);
  }

  private put(snapshot: NamespaceSnapshot): void {
    const key = snapshot.namespaceKey;
    const current = this.held.peek(key);
    if (current !== undefined && snapshot.revision <= current.snapshot.revision) return;
    let compiled: CompiledSnapshot;
    try {
      compiled = this.compile(snapshot.document, { hash: this.options.hash });
    } catch (err) {
      const paths = err instanceof SnapshotInvalidError ? err.paths : undefined;
      this.options.logger.error(
        { err, namespace: key, revision: snapshot.revision, ...(paths === undefined ? {} : { paths }) },
        'snapshot ignored: it does not compile; the previous one stays',
      );
      return;
    }
    this.held.set(key, { snapshot, compiled, receivedAt: this.now() });
  }
}
