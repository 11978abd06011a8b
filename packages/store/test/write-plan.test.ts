/**
 * PostgreSQL: a write's bump-and-read looks up the rows of the flags it touched, however large the
 * namespace, in the generic plan PostgreSQL settles on for a prepared statement after a few runs
 * (which knows neither the namespace nor the keys) and on tables without statistics (a namespace
 * just imported, or autovacuum off). Planned as a join of the keys with each table, it read every
 * flag, variant and rule of the namespace on every write.
 */
import test from 'ava';
import pg from 'pg';
import { openStore } from '@ensign/store';
import type { SqlStore } from '@ensign/store';
import { createTestDatabase } from '@ensign/testkit';
import type { TestDatabase } from '@ensign/testkit';
import { manyFlags } from './helpers/document-seed.js';

const FLAGS = 400;
/** One flag's rows: the flag, its two variants, its rule, its rule's segment and distribution, the segment. */
const MOST_ROWS_PER_SCAN = 5;

let db: TestDatabase | undefined;
let store: SqlStore | undefined;

test.before(async () => {
  db = await createTestDatabase('postgres');
  store = await openStore({ url: db.url });
  await store.migrate();
});

test.after.always(async () => {
  await store?.close();
  await db?.drop();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Rows each scan of a table produced (over all its loops), by table. */
function rowsScanned(node: PlanNode, out = new Map<string, number>()): Map<string, number> {
  if (node['Relation Name'] !== undefined && node['Node Type'].includes('Scan')) {
    const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
    out.set(node['Relation Name'], Math.max(out.get(node['Relation Name']) ?? 0, rows));
  }
  for (const child of node.Plans ?? []) rowsScanned(child, out);
  return out;
}

test.serial(`postgres: updating one flag of ${FLAGS} reads only that flag's rows, in the generic plan and without statistics`, async (t) => {
  const s = store!;
  const ns = 'plan';
  await s.documents.importDocuments([manyFlags(ns, FLAGS)], {});
  const flag = await s.flags.get(ns, 'flag-00007');

  let read: { sql: string; bindings: readonly unknown[] } | undefined;
  const stop = s.onStatement((sql, _name, bindings) => {
    if (sql.startsWith('with k as')) read = { sql, bindings };
  });
  try {
    await s.flags.update({ namespaceKey: ns, key: flag.key, name: 'renamed', description: '', enabled: !flag.enabled, defaultVariantId: '', metadata: undefined });
  } finally {
    stop();
  }
  if (read === undefined) return t.fail('the update sent no bump-and-read');

  const client = new pg.Client({ connectionString: db!.url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('set local plan_cache_mode = force_generic_plan');
    await client.query(`prepare bump_and_read as ${read.sql}`);
    const literal = (v: unknown): string => (v === null || v === undefined ? 'null' : client.escapeLiteral(v instanceof Date ? v.toISOString() : String(v)));
    const { rows } = await client.query(`explain (analyze, format json) execute bump_and_read(${read.bindings.map(literal).join(', ')})`);
    await client.query('rollback');
    const plan = (rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan;
    const scanned = rowsScanned(plan);
    t.log([...scanned].map(([table, n]) => `${table}: ${n}`).join(', '));
    for (const table of ['flags', 'variants', 'rules', 'distributions']) t.true(scanned.has(table), `${table} is read`);
    for (const [table, n] of scanned) t.true(n <= MOST_ROWS_PER_SCAN, `a scan of ${table} produced ${n} rows`);
  } finally {
    await client.end();
  }
});
