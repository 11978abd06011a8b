import type { NamespaceChange } from '@ensign/store';

/**
 * Bridges the store's `onCommit`, fixed when the store opens, to a snapshot publisher that can
 * only be built once the store exists. Pass `relay.onCommit` to `openStore`, then `attach` the
 * publisher and call its `loadAll()`: commits before `attach` are not replayed, and `loadAll`
 * reads them anyway.
 */
export class CommitRelay {
  private listener: ((change: NamespaceChange) => void) | undefined;

  /** The callback to hand to `openStore({ onCommit })`. */
  readonly onCommit = (change: NamespaceChange): void => {
    this.listener?.(change);
  };

  /** From now on every committed change goes to `listener`. */
  attach(listener: (change: NamespaceChange) => void): void {
    this.listener = listener;
  }
}
