/** Where feature files come from: a local directory or a git repository. */
import type { FeatureTree } from './feature-tree.js';

/** The source's files as they are now. */
export interface SourceSnapshot {
  /** What identifies this state without reading it (a git commit); absent for a directory. */
  revision?: string;
  tree(): Promise<FeatureTree>;
}

export interface FeatureSource {
  readonly type: 'local' | 'git';
  /** Shown by `/meta/info` and `/health`: the path, or the repository, ref and directory. */
  readonly metadata: Readonly<Record<string, string>>;
  /** How often the source is looked at even when nothing announced a change. */
  readonly pollIntervalMs: number;
  /** Gets ready (a clone); rejects when the source cannot be read at all. */
  open(): Promise<void>;
  /** The files now (a git source fetches first). */
  current(): Promise<SourceSnapshot>;
  /** Calls `changed` when files may have changed; returns what stops watching. */
  watch?(changed: () => void): () => void;
  close(): Promise<void>;
}
