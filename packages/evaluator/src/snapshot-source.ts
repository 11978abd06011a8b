import type { CompiledSnapshot, NamespaceSnapshot } from '@ensign/engine';

/** A namespace snapshot as an evaluator holds it: the document and its compiled form. */
export interface HeldSnapshot {
  snapshot: NamespaceSnapshot;
  compiled: CompiledSnapshot;
}

/**
 * Where evaluation finds compiled snapshots. The same evaluator runs over an in-process source
 * (single instance) and a bus-fed one (scaled out); `get` is synchronous because it is on the
 * hot path.
 */
export interface SnapshotSource {
  /** The snapshot held for a namespace, or undefined when none is. */
  get(namespaceKey: string): HeldSnapshot | undefined;
  /** True once the initial sync is done and answers reflect the stored state. */
  ready(): boolean;
  /**
   * True when a namespace `get` does not return exists elsewhere and `load` can bring it in.
   * Sources that hold every namespace leave `fetchable` and `load` out; one that has either has both.
   */
  fetchable?(namespaceKey: string): boolean;
  /**
   * Holds a namespace that `fetchable` names; resolves with it, or undefined when it no longer
   * exists. Rejects with an Unavailable AppError when it cannot be brought in.
   */
  load?(namespaceKey: string): Promise<HeldSnapshot | undefined>;
  /**
   * Calls `listener` with the key of every namespace whose held version changed (a newer version
   * taken, or the namespace dropped). Streams use it; sources without it serve no streams.
   */
  onChange?(listener: (namespaceKey: string) => void): void;
  /**
   * Keeps a namespace held and followed, room or not, until as many `unpin`s: a streamed namespace
   * must never fall out of a bounded cache, or its streams would miss changes.
   */
  pin?(namespaceKey: string): void;
  unpin?(namespaceKey: string): void;
}
