import type { CompiledSnapshot, NamespaceSnapshot } from '@ensign/engine';

/**
 * Where the snapshot publisher hands each namespace's compiled snapshot: the evaluator's
 * in-process snapshot source in a single instance, a bus publisher when scaled out.
 */
export interface SnapshotSink {
  /** A namespace's newest snapshot; a sink ignores one not newer than what it holds. */
  put(snapshot: NamespaceSnapshot, compiled: CompiledSnapshot): void;
  /** The namespace was deleted at `revision`; a sink keeps a newer snapshot of a re-created one. */
  remove(namespaceKey: string, revision: number): void;
}
