/** Logs a refused snapshot once per namespace and revision, however often it is delivered again. */
import { SnapshotInvalidError } from '@ensign/engine';
import type { SnapshotLogger } from './snapshot-logger.js';

export class Refusals {
  private readonly logged = new Map<string, number>();

  constructor(private readonly logger: SnapshotLogger) {}

  /** Records that `revision` of `namespaceKey` was refused because of `err`; logs it the first time. */
  refuse(namespaceKey: string, revision: number, what: string, err: unknown): void {
    if (this.logged.get(namespaceKey) === revision) return;
    this.logged.set(namespaceKey, revision);
    const paths = err instanceof SnapshotInvalidError ? err.paths : undefined;
    this.logger.error({ err, namespace: namespaceKey, revision, ...(paths === undefined ? {} : { paths }) }, `${what} refused; the version held stays`);
  }

  /** Whether that revision was refused already (so it is not fetched and refused again). */
  refused(namespaceKey: string, revision: number): boolean {
    return this.logged.get(namespaceKey) === revision;
  }

  forget(namespaceKey: string): void {
    this.logged.delete(namespaceKey);
  }
}
