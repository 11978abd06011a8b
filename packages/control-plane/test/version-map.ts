/** The simplest holder of versions a pipeline can feed: a Map where a newer revision wins. */
import type { PipelineHolder } from '../src/index.js';
import type { SnapshotVersion } from '@ensign/snapshots';

export class VersionMap implements PipelineHolder {
  readonly held = new Map<string, SnapshotVersion>();
  readonly removedAt = new Map<string, number>();
  ready = false;

  peek(key: string): SnapshotVersion | undefined {
    return this.held.get(key);
  }
  offer(version: SnapshotVersion): boolean {
    const at = this.held.get(version.namespaceKey)?.revision ?? this.removedAt.get(version.namespaceKey) ?? -1;
    if (version.revision <= at) return false;
    this.held.set(version.namespaceKey, version);
    return true;
  }
  remove(key: string, revision: number): void {
    if (revision < (this.held.get(key)?.revision ?? -1)) return;
    this.held.delete(key);
    this.removedAt.set(key, revision);
  }
  revisions(): Map<string, number> {
    return new Map(Array.from(this.held, ([key, version]) => [key, version.revision]));
  }
  drop(key: string): void {
    this.held.delete(key);
  }
  wants(): boolean {
    return true;
  }
  async reached(key: string, revision: number, timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if ((this.held.get(key)?.revision ?? this.removedAt.get(key) ?? -1) >= revision) return true;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return false;
  }
  markReady(): void {
    this.ready = true;
  }
}
