/**
 * The control plane's copy of the live digest set: loaded from the store at start, reloaded after
 * every change to authentications and periodically (changes made through other control planes),
 * and handed to whoever publishes it to the evaluators.
 */
import { isNewer, KeyedLanes, PeriodicTask } from '@ensign/core';
import type { LiveDigest } from './authentication-store.js';
import type { DigestSet } from './digest-set.js';
import { digestSetOf, EMPTY_DIGEST_SET } from './digest-set.js';

/** Where live digests are read from (the store's authentications). */
export interface LiveDigestSource {
  listLiveDigests(now: Date): Promise<LiveDigest[]>;
  /** Changes whenever an authentication is created, changed or deleted, by anyone (one cheap query). */
  digestsFingerprint?(): Promise<string>;
}

/** The logger calls it makes; a pino logger satisfies it. */
export interface DigestLogger {
  warn(obj: object, msg: string): void;
}

export interface LiveDigestsOptions {
  source: LiveDigestSource;
  logger: DigestLogger;
  /** Periodic reload; 0 = only on `refresh`. */
  intervalMs: number;
  /**
   * How often the source's fingerprint is read (0 or no fingerprint = never): a change made
   * through another server sharing the database reloads the set then, bus or no bus.
   */
  checkIntervalMs?: number;
  /**
   * Publishes loaded sets, stamped with when they were read. It runs in the background, one at a
   * time and only the latest, so a bus that is down never holds up the request that changed a token.
   */
  publish?: (set: DigestSet, loadedAtMs: number) => Promise<void>;
  now?: () => number;
}

/** Holds the current set; `current()` is synchronous and allocation-free for the hot path. */
export class LiveDigests {
  private set: DigestSet = EMPTY_DIGEST_SET;
  private loadedAtMs = 0;
  /** Refresh requests made, and the last one a finished load began after. */
  private requested = 0;
  private completed = 0;
  private waiters: Array<{ generation: number; resolve: () => void; reject: (err: unknown) => void }> = [];
  private loading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private check: PeriodicTask | undefined;
  private fingerprint: string | undefined;
  private checkFailing = false;
  /** Publishing, one at a time and only the latest set (a burst of reloads folds into one publish). */
  private readonly publishing = new KeyedLanes();
  private readonly now: () => number;

  constructor(private readonly options: LiveDigestsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The set as last loaded (or adopted). */
  readonly current = (): DigestSet => this.set;

  /**
   * Reloads from the store and resolves once a load that began after this call is in place (so a
   * token created just before is in the set). Concurrent calls share loads.
   */
  refresh(): Promise<void> {
    const generation = ++this.requested;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ generation, resolve, reject }));
    this.loading ??= this.loadLoop();
    return done;
  }

  /** Resolves once nothing is waiting to be published (tests and orderly shutdowns). */
  published(): Promise<void> {
    return this.publishing.settled();
  }

  /** Takes a set another control plane loaded later than ours (seen on the bus). */
  adopt(set: DigestSet, loadedAtMs: number): void {
    if (!isNewer(loadedAtMs, this.loadedAtMs)) return;
    this.set = set;
    this.loadedAtMs = loadedAtMs;
  }

  /** Starts the periodic reload and the fingerprint check. */
  start(): void {
    this.startCheck();
    if (this.options.intervalMs <= 0 || this.timer !== undefined) return;
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => this.options.logger.warn({ err }, 'reloading the live token digests failed'));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.check?.stop();
    this.check = undefined;
    await this.loading?.catch(() => undefined);
  }

  private startCheck(): void {
    const { checkIntervalMs = 0, source, logger } = this.options;
    const read = source.digestsFingerprint?.bind(source);
    if (checkIntervalMs <= 0 || read === undefined || this.check !== undefined) return;
    this.check = new PeriodicTask(
      checkIntervalMs,
      async () => {
        const now = await read();
        this.checkFailing = false;
        const before = this.fingerprint;
        this.fingerprint = now;
        // Read before the reload, so a change made during it shows at the next check.
        if (before !== now) await this.refresh();
      },
      (err) => {
        // An outage is logged once, not every check.
        if (!this.checkFailing) logger.warn({ err }, 'checking the authentications for changes failed');
        this.checkFailing = true;
      },
    );
    this.check.start(true);
  }

  /** Loads until every request is answered by a load that began after it (one load answers all made before it began). */
  private async loadLoop(): Promise<void> {
    try {
      while (this.completed < this.requested) {
        const target = this.requested;
        let failure: { err: unknown } | undefined;
        try {
          await this.loadOnce();
        } catch (err) {
          failure = { err };
        }
        this.completed = target;
        const due = this.waiters.filter((w) => w.generation <= target);
        this.waiters = this.waiters.filter((w) => w.generation > target);
        for (const waiter of due) {
          if (failure === undefined) waiter.resolve();
          else waiter.reject(failure.err);
        }
      }
    } finally {
      this.loading = undefined;
    }
  }

  private async loadOnce(): Promise<void> {
    const loadedAtMs = this.now();
    const set = digestSetOf(await this.options.source.listLiveDigests(new Date(loadedAtMs)));
    if (loadedAtMs >= this.loadedAtMs) {
      this.set = set;
      this.loadedAtMs = loadedAtMs;
    }
    const publish = this.options.publish;
    if (publish !== undefined) this.publishing.run('digests', () => this.publishOne(publish, set, loadedAtMs));
  }

  private async publishOne(publish: NonNullable<LiveDigestsOptions['publish']>, set: DigestSet, loadedAtMs: number): Promise<void> {
    try {
      await publish(set, loadedAtMs);
    } catch (err) {
      // The next change or periodic reload publishes again; evaluators keep the previous set meanwhile.
      this.options.logger.warn({ err }, 'publishing the live token digests failed');
    }
  }
}
