import type { Knex } from 'knex';
import { isPostgres, sendTogether } from '../sql-util.js';
import type { FlagsState } from '../types.js';
import { readFlagsStateAtOnce } from './flags-state-statement.js';
import { readStateFlags, readStateRollouts, readStateRules, readStateSchedules, readStateSegments } from './state-parts.loader.js';

/** The state of some flags: those that exist, and the keys of those that do not. */
export interface FlagsRead {
  state: FlagsState;
  removed: string[];
}

/**
 * The evaluation state of `flagKeys` alone, built exactly as `readNamespaceState` builds it, so a
 * write can report what it changed at the cost of what it touched, in a fixed number of queries
 * (one on PostgreSQL, where each is a round trip). `writes` are sent with it (in its statement on
 * PostgreSQL, first elsewhere) and are not seen by it.
 */
export async function readFlagsState(db: Knex, namespaceKey: string, flagKeys: readonly string[], writes: readonly Knex.QueryBuilder[] = []): Promise<FlagsRead> {
  if (isPostgres(db)) return readFlagsStateAtOnce(db, namespaceKey, flagKeys, writes);
  await sendTogether(db, writes);
  const keys = [...new Set(flagKeys)];
  const flags = await readStateFlags(db, namespaceKey, keys);
  const found = new Set(flags.map((f) => f.key));
  const existing = keys.filter((k) => found.has(k));
  const rules = await readStateRules(db, namespaceKey, existing);
  const rollouts = await readStateRollouts(db, namespaceKey, existing);
  const segmentKeys = [...new Set([...rules, ...rollouts].flatMap((r) => r.segmentKeysInOrder))];
  const segments = await readStateSegments(db, namespaceKey, segmentKeys);
  const schedules = await readStateSchedules(db, namespaceKey, existing);
  return { state: { flags, rules, rollouts, segments, schedules }, removed: keys.filter((k) => !found.has(k)) };
}
