import type { Knex } from 'knex';
import { readSegmentFlagsAtOnce } from './loaders/flags-state-statement.js';
import { readFlagsState } from './loaders/flags-state.loader.js';
import { flagsUsingSegment } from './loaders/segment-flags.loader.js';
import { isPostgres, sendTogether } from './sql-util.js';
import type { SnapshotEffect } from './types.js';

/** What a write touched as evaluation sees it; read into a `SnapshotEffect` inside the write's transaction. */
export type Touched =
  | { kind: 'flags'; keys: readonly string[] }
  /** Every flag using the segment, found when the write commits. */
  | { kind: 'segment'; key: string }
  | { kind: 'none' | 'namespace-created' | 'namespace-deleted' };

export const touchesFlag = (key: string): Touched => ({ kind: 'flags', keys: [key] });
export const touchesSegment = (key: string): Touched => ({ kind: 'segment', key });
export const TOUCHES_NOTHING: Touched = { kind: 'none' };
export const CREATES_NAMESPACE: Touched = { kind: 'namespace-created' };
export const DELETES_NAMESPACE: Touched = { kind: 'namespace-deleted' };

/**
 * The effect of a write at the revision it commits; call it in its transaction, after the write.
 * `writes` (the change record) go with the read, which does not see them: in its statement on
 * PostgreSQL, before it elsewhere.
 */
export async function readEffect(db: Knex, namespaceKey: string, touched: Touched, writes: readonly Knex.QueryBuilder[] = []): Promise<SnapshotEffect> {
  switch (touched.kind) {
    case 'flags':
      return { kind: 'flags', ...(await readFlagsState(db, namespaceKey, touched.keys, writes)) };
    case 'segment': {
      if (isPostgres(db)) {
        const read = await readSegmentFlagsAtOnce(db, namespaceKey, touched.key, writes);
        return read.state.flags.length === 0 ? { kind: 'none' } : { kind: 'flags', ...read };
      }
      await sendTogether(db, writes);
      const flagKeys = await flagsUsingSegment(db, namespaceKey, touched.key);
      if (flagKeys.length === 0) return { kind: 'none' };
      return { kind: 'flags', ...(await readFlagsState(db, namespaceKey, flagKeys)) };
    }
    default:
      await sendTogether(db, writes);
      return { kind: touched.kind };
  }
}
