/**
 * PostgreSQL: the evaluation state of some flags in one statement, each part a JSON array of its
 * rows, so a write reads what it touched in one round trip instead of a dozen. The rows are those
 * the separate queries of `state-parts.loader` read, in the same order, and are assembled by the
 * same functions, so the state is identical on every engine.
 */
import type { Knex } from 'knex';
import type { ConstraintModel } from '../models/constraint.model.js';
import type { DistributionModel } from '../models/distribution.model.js';
import type { FlagModel } from '../models/flag.model.js';
import type { RolloutSegmentReferenceModel } from '../models/rollout-segment-reference.model.js';
import type { RolloutSegmentModel } from '../models/rollout-segment.model.js';
import type { RolloutThresholdModel } from '../models/rollout-threshold.model.js';
import type { RolloutModel } from '../models/rollout.model.js';
import type { RuleSegmentModel } from '../models/rule-segment.model.js';
import type { RuleModel } from '../models/rule.model.js';
import type { SegmentModel } from '../models/segment.model.js';
import type { VariantModel } from '../models/variant.model.js';
import { preparedRaw } from '../prepared-statements.js';
import type { FlagsRead } from './flags-state.loader.js';
import { assembleFlags, assembleRollouts, assembleRules, assembleSchedules, assembleSegments, type ScheduleRow } from './state-parts.loader.js';

/** One part: a JSON array of the rows of `rows` (which binds the namespace `binds` times), in `order`. */
interface Part {
  name: string;
  rows: string;
  binds: number;
  order: string;
}

/** The flag keys of `k`, as rows `u(key)`. */
const FLAG_KEYS = 'unnest((select keys from k)) as u(key)';
/** The keys of the segments the flags' rules and rollouts use, as rows `u(key)` (`used` is a union: no key twice). */
const USED_SEGMENT_KEYS = '(select segment_key as key from used) as u';
/** The ids of the rules and of the rollouts read, as rows `u(key)`. */
const RULE_IDS = '(select id as key from r) as u';
const ROLLOUT_IDS = '(select id as key from ro) as u';

/**
 * The rows of `table` whose `column` is one of the keys `keys` (a namespace's rows when `namespaced`):
 * one index lookup per key. The `offset 0` keeps PostgreSQL from planning it as a join of the keys
 * with the table, which it may do by reading the whole namespace or table when it lacks statistics
 * or, for a prepared statement, in the generic plan it settles on (knowing neither the namespace
 * nor the keys).
 */
function rowsOfKeys(table: string, column: string, keys: string, options: { namespaced?: boolean; where?: string; columns?: string } = {}): string {
  const { namespaced = true, where, columns = 't.*' } = options;
  const conditions = [...(namespaced ? ['namespace_key = ?'] : []), `${column} = u.key`, ...(where === undefined ? [] : [where])];
  return `select ${columns} from ${keys} cross join lateral (select * from ${table} where ${conditions.join(' and ')} offset 0) t`;
}

/**
 * The rules and rollouts of the flags, and the segments they use, each planned once and read once
 * however many parts use them (the parts of a read of the whole state).
 */
const STATE_CTES = {
  sql:
    `r as (${rowsOfKeys('rules', 'flag_key', FLAG_KEYS)}),\n` +
    `ro as (${rowsOfKeys('rollouts', 'flag_key', FLAG_KEYS)}),\n` +
    `used as (${rowsOfKeys('rule_segments', 'rule_id', RULE_IDS, { namespaced: false, columns: 't.segment_key' })}` +
    ` union ${rowsOfKeys('rollout_segment_references', 'rollout_id', ROLLOUT_IDS, { namespaced: false, columns: 't.segment_key' })})`,
  binds: 2,
};

const PARTS: readonly Part[] = [
  { name: 'flags', rows: rowsOfKeys('flags', 'key', FLAG_KEYS), binds: 1, order: 'created_at, key' },
  { name: 'variants', rows: rowsOfKeys('variants', 'flag_key', FLAG_KEYS), binds: 1, order: 'created_at, key' },
  { name: 'rules', rows: 'select * from r', binds: 0, order: 'flag_key, rank, created_at, id' },
  { name: 'rule_segments', rows: rowsOfKeys('rule_segments', 'rule_id', RULE_IDS, { namespaced: false }), binds: 0, order: 'rule_id, position' },
  { name: 'distributions', rows: rowsOfKeys('distributions', 'rule_id', RULE_IDS, { namespaced: false }), binds: 0, order: 'created_at, id' },
  { name: 'rollouts', rows: 'select * from ro', binds: 0, order: 'flag_key, rank, created_at, id' },
  { name: 'thresholds', rows: rowsOfKeys('rollout_thresholds', 'rollout_id', ROLLOUT_IDS, { namespaced: false }), binds: 0, order: 'rollout_id' },
  { name: 'rollout_segments', rows: rowsOfKeys('rollout_segments', 'rollout_id', ROLLOUT_IDS, { namespaced: false }), binds: 0, order: 'rollout_id' },
  { name: 'references', rows: rowsOfKeys('rollout_segment_references', 'rollout_id', ROLLOUT_IDS, { namespaced: false }), binds: 0, order: 'rollout_id, position' },
  { name: 'segments', rows: rowsOfKeys('segments', 'key', USED_SEGMENT_KEYS), binds: 1, order: 'created_at, key' },
  { name: 'constraints', rows: rowsOfKeys('constraints', 'segment_key', USED_SEGMENT_KEYS), binds: 1, order: 'created_at, id' },
  {
    name: 'schedules',
    rows: rowsOfKeys('flag_steps', 'flag_key', FLAG_KEYS, { where: "kind = 'schedule' and status = 'pending'", columns: 't.flag_key, t.at, t.enabled, t.created_at, t.id' }),
    binds: 1,
    order: 'at, created_at, id',
  },
];

const ORDERED = (order: string): string =>
  order
    .split(', ')
    .map((column) => `q."${column}"`)
    .join(', ');

/** The select list of some parts, and how many namespace bindings it takes. */
const selectOf = (parts: readonly Part[]) => ({
  sql: parts.map((p) => `(select coalesce(json_agg(q order by ${ORDERED(p.order)}), '[]') from (${p.rows}) q) as "${p.name}"`).join(',\n  '),
  binds: parts.reduce((n, p) => n + p.binds, 0),
});

/** What a read takes: the whole state, or only the flag rows and their variants. */
export type StateScope = 'state' | 'flags';

const SELECTS: Readonly<Record<StateScope, { sql: string; binds: number }>> = {
  state: selectOf(PARTS),
  flags: selectOf(PARTS.filter((p) => p.name === 'flags' || p.name === 'variants')),
};

/** A piece of SQL and its bindings. */
interface Sql {
  sql: string;
  bindings: readonly Knex.RawBinding[];
}

/** Which flags a statement reads: its `k` part (one row, `keys`: an array), and its bindings. */
interface FlagScope {
  cte: string;
  bindings: readonly Knex.RawBinding[];
}

/** A PostgreSQL array literal of text values: every element quoted, `\\` and `"` escaped. */
const textArray = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

/** These flag keys, one binding whatever their number (each part looks them up one by one: `rowsOfKeys`). */
const flagKeys = (keys: readonly string[]): FlagScope => ({ cte: 'k as (select ?::text[] as keys)', bindings: [textArray(keys)] });

/** The flags whose rules or rollouts use the segment. */
const flagsUsing = (ns: string, segmentKey: string): FlagScope => ({
  cte:
    'k as (select array(select r.flag_key from rule_segments s join rules r on r.id = s.rule_id where s.namespace_key = ? and s.segment_key = ?' +
    ' union select r.flag_key from rollout_segment_references s join rollouts r on r.id = s.rollout_id where s.namespace_key = ? and s.segment_key = ?) as keys)',
  bindings: [ns, segmentKey, ns, segmentKey],
});

/**
 * The statement reading the parts of the flags in `scope`, after `head` (more `WITH` parts: a bump,
 * writes sent along, whose rows the read does not see) and with `columns` selected before them.
 */
function partsStatement(db: Knex, ns: string, scope: FlagScope, head: readonly Sql[], columns: Sql = { sql: '', bindings: [] }, parts: StateScope = 'state'): Knex.Raw {
  const state = parts === 'state' ? [{ sql: STATE_CTES.sql, bindings: Array<string>(STATE_CTES.binds).fill(ns) }] : [];
  const withs = [{ sql: scope.cte, bindings: scope.bindings }, ...state, ...head];
  const select = SELECTS[parts];
  return preparedRaw(db, `with ${withs.map((w) => w.sql).join(',\n')}\nselect ${columns.sql}\n  ${select.sql}`, [
    ...withs.flatMap((w) => w.bindings),
    ...columns.bindings,
    ...Array<string>(select.binds).fill(ns),
  ]);
}

/** Writes sent as `WITH` parts of a read. */
const sentAlong = (writes: readonly Knex.QueryBuilder[]): Sql[] =>
  writes.map((w, i) => {
    const { sql, bindings } = w.toSQL();
    return { sql: `w${i} as (${sql})`, bindings };
  });

/** The row of the statement: each part read as its rows (a read of the flags alone has only the first two). */
interface PartsRow {
  flags: FlagModel[];
  variants: VariantModel[];
  rules?: RuleModel[];
  rule_segments?: RuleSegmentModel[];
  distributions?: DistributionModel[];
  rollouts?: RolloutModel[];
  thresholds?: RolloutThresholdModel[];
  rollout_segments?: RolloutSegmentModel[];
  references?: RolloutSegmentReferenceModel[];
  segments?: SegmentModel[];
  constraints?: ConstraintModel[];
  schedules?: ScheduleRow[];
}

function assemble(row: PartsRow, keys: readonly string[]): FlagsRead {
  const flags = assembleFlags(row.flags, row.variants);
  const found = new Set(flags.map((f) => f.key));
  return {
    state: {
      flags,
      rules: assembleRules(row.rules ?? [], row.rule_segments ?? [], row.distributions ?? []),
      rollouts: assembleRollouts(row.rollouts ?? [], row.thresholds ?? [], row.rollout_segments ?? [], row.references ?? []),
      segments: assembleSegments(row.segments ?? [], row.constraints ?? []),
      schedules: assembleSchedules(row.schedules ?? []),
    },
    removed: keys.filter((k) => !found.has(k)),
  };
}

const rowsOf = async <R>(query: Knex.Raw): Promise<R[]> => ((await query) as unknown as { rows: R[] }).rows;

/** `readFlagsState` in one PostgreSQL statement, which also sends `writes` (the read does not see them). */
export async function readFlagsStateAtOnce(db: Knex, ns: string, keys: readonly string[], writes: readonly Knex.QueryBuilder[] = []): Promise<FlagsRead> {
  const unique = [...new Set(keys)];
  const [row] = await rowsOf<PartsRow>(partsStatement(db, ns, flagKeys(unique), sentAlong(writes)));
  return assemble(row!, unique);
}

/** The state of the flags using a segment (none: an empty state), in one PostgreSQL statement that also sends `writes`. */
export async function readSegmentFlagsAtOnce(db: Knex, ns: string, segmentKey: string, writes: readonly Knex.QueryBuilder[] = []): Promise<FlagsRead> {
  const [row] = await rowsOf<PartsRow>(partsStatement(db, ns, flagsUsing(ns, segmentKey), sentAlong(writes)));
  return assemble(row!, []);
}

/**
 * Bumps the namespace's revision and reads the flags (their state, or only their rows and variants)
 * in one PostgreSQL statement; undefined when there is no such namespace. The read sees the
 * database as the statement began, before any wait for the namespace row's lock: when another write
 * committed meanwhile (the revision moved by more than this bump), they are read again now that the
 * lock is held.
 */
export async function bumpAndReadFlags(
  trx: Knex.Transaction,
  ns: string,
  at: string,
  keys: readonly string[],
  parts: StateScope,
): Promise<{ revision: number; read: FlagsRead } | undefined> {
  const unique = [...new Set(keys)];
  const bump = { sql: 'bump as (update namespaces set revision = revision + 1, state_modified_at = ? where key = ? returning revision)', bindings: [at, ns] };
  const columns = { sql: '(select revision from bump) as revision, (select revision from namespaces where key = ?) as seen,', bindings: [ns] };
  const read = (head: readonly Sql[], cols?: Sql) => rowsOf<PartsRow & { revision?: string | null; seen?: string | null }>(partsStatement(trx, ns, flagKeys(unique), head, cols, parts));
  const [row] = await read([bump], columns);
  if (row?.revision === undefined || row.revision === null) return undefined;
  const revision = Number(row.revision);
  if (row.seen !== null && Number(row.seen) + 1 === revision) return { revision, read: assemble(row, unique) };
  const [again] = await read([]);
  return { revision, read: assemble(again!, unique) };
}
