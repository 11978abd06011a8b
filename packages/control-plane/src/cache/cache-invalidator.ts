import type { CommittedChange } from '@ensign/store';
import { invalidateNamespace } from './cache-scopes.js';
import type { InvalidationChannel } from './invalidation-channel.js';
import type { ReadCache } from './read-cache.js';

/**
 * Invalidates the read cache after each committed write, and tells the other control planes
 * through the channel when there is one. `settled` lets a write answer only once its
 * invalidation is done, so the next read anywhere sees it.
 */
export class CacheInvalidator {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly cache: ReadCache,
    private readonly channel?: InvalidationChannel,
  ) {}

  /** Hears of a committed write (wire it with `store.onCommit`); resolves once its invalidation is done. Never rejects. */
  readonly notify = (change: CommittedChange): Promise<void> => {
    const namespaceKey = change.record.namespaceKey;
    const done = Promise.all([invalidateNamespace(this.cache, namespaceKey), this.channel?.publish(namespaceKey)]).then(
      () => undefined,
      () => undefined,
    );
    this.running.add(done);
    void done.then(() => this.running.delete(done));
    return done;
  };

  /**
   * Hears of a change found in the database (made through another server or the CLI): only this
   * cache is invalidated, since the writer's server told the channel already. Never rejects.
   */
  readonly notifyStored = (namespaceKey: string): Promise<void> => invalidateNamespace(this.cache, namespaceKey).catch(() => undefined);

  /** Resolves once the invalidations of every write heard of so far are done (or failed and been logged). */
  async settled(): Promise<void> {
    await Promise.all(this.running);
  }
}
