import type { CommitListener, CommittedChange } from './types.js';

/** How long a write waits for its listeners when `StoreOptions.commitWaitMs` is not set. */
export const DEFAULT_COMMIT_WAIT_MS = 5_000;

/** The listeners of committed writes; a write answers once they have settled, or the wait is over. */
export class CommitListeners {
  private readonly listeners = new Set<CommitListener>();

  constructor(private readonly waitMs: number) {}

  /** Adds a listener; the function returned removes it (each registration on its own). */
  add(listener: CommitListener): () => void {
    const entry: CommitListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Calls every listener and waits for all to settle, at most `waitMs`; never rejects. */
  async announce(change: CommittedChange): Promise<void> {
    if (this.listeners.size === 0) return;
    // An async wrapper turns a listener's synchronous throw into a rejection allSettled absorbs.
    const settled = Promise.allSettled([...this.listeners].map(async (listener) => listener(change)));
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.waitMs);
    });
    try {
      await Promise.race([settled, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}
