/** What `/meta/info` and `/health` say about where flags come from. */
import type { DeclarativeStatus } from '../declarative/declarative-storage.js';

export interface StorageReport {
  type: 'database' | 'local' | 'git';
  /** Whether management writes are refused. */
  readOnly: boolean;
  /** Declarative storage's live status (local and git). */
  status?: () => DeclarativeStatus;
}

/** `/health`'s `storage`: the revision served, the last sync, the latest error. */
export function storageHealth(status: DeclarativeStatus): Record<string, unknown> {
  return {
    type: status.type,
    ...(status.revision === undefined ? {} : { revision: status.revision }),
    ...(status.lastSync === undefined ? {} : { lastSync: status.lastSync.toISOString() }),
    ...(status.lastError === undefined
      ? {}
      : {
          lastError: {
            message: status.lastError.message,
            ...(status.lastError.file === undefined ? {} : { file: status.lastError.file }),
            ...(status.lastError.path === undefined ? {} : { path: status.lastError.path }),
            at: status.lastError.at.toISOString(),
          },
        }),
  };
}

/**
 * `/meta/info`'s `storage.metadata` (Flipt's map of strings: `repository` and `ref` for git), with
 * the path or directory, the commit (git) or revision (local), when the files were last applied,
 * and the latest error's message.
 */
export function storageMetadata(status: DeclarativeStatus): Record<string, string> {
  return {
    ...status.metadata,
    ...(status.revision === undefined ? {} : { [status.type === 'git' ? 'commit' : 'revision']: status.revision }),
    ...(status.lastSync === undefined ? {} : { lastSync: status.lastSync.toISOString() }),
    ...(status.lastError === undefined ? {} : { lastError: status.lastError.message }),
  };
}
