/**
 * `storage.type: local`: a directory, watched for changes (recursively where the platform can)
 * and read again every poll interval in case an event was missed.
 */
import { type FSWatcher, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DeclarativeError } from './declarative-error.js';
import { directoryTree } from './directory-tree.js';
import type { FeatureSource, SourceSnapshot } from './feature-source.js';

export interface LocalSourceOptions {
  path: string;
  pollIntervalMs: number;
}

export class LocalSource implements FeatureSource {
  readonly type = 'local';
  readonly metadata: Readonly<Record<string, string>>;
  readonly pollIntervalMs: number;
  private readonly root: string;

  constructor(options: LocalSourceOptions) {
    this.root = resolve(options.path);
    this.pollIntervalMs = options.pollIntervalMs;
    this.metadata = { path: this.root };
  }

  async open(): Promise<void> {
    const info = await stat(this.root).catch(() => undefined);
    if (info === undefined || !info.isDirectory()) throw new DeclarativeError(`storage.local.path: ${this.root} is not a directory`);
  }

  async current(): Promise<SourceSnapshot> {
    return { tree: async () => directoryTree(this.root) };
  }

  watch(changed: () => void): () => void {
    let watcher: FSWatcher | undefined;
    const stop = (): void => {
      watcher?.close();
      watcher = undefined;
    };
    try {
      watcher = watch(this.root, { recursive: true, persistent: false }, () => changed());
      // A watcher that fails (the directory replaced, too many watches) leaves the polling to notice changes.
      watcher.on('error', stop);
    } catch {
      try {
        watcher = watch(this.root, { persistent: false }, () => changed());
        watcher.on('error', stop);
      } catch {
        watcher = undefined;
      }
    }
    return stop;
  }

  async close(): Promise<void> {}
}
