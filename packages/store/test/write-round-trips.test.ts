import test from 'ava';
import { openStore } from '@ensign/store';
import type { SqlStore } from '@ensign/store';
import { createTestDatabase } from '@ensign/testkit';
import type { TestDatabase } from '@ensign/testkit';
import type { CommittedChange } from '@ensign/store';
import { flagWithVariants } from './helpers/fixtures.js';
import { expectFlagsEffect } from './helpers/state-slice.js';
import { steppingClock } from './helpers/store-harness.js';

// The tests run one after another: each listens to every statement the store sends.
// Each statement is a round trip to PostgreSQL; a one-flag update is what the API's `PUT` of a
// flag makes: the change policy read of its write check, then the write.
const MAX_ROUND_TRIPS = 5;

let db: TestDatabase | undefined;
let store: SqlStore | undefined;

test.before(async () => {
  db = await createTestDatabase('postgres');
  store = await openStore({ url: db.url, now: steppingClock() });
  await store.migrate();
});

test.after.always(async () => {
  await store?.close();
  await db?.drop();
});

/** The statements `work` sends, in order. */
async function statementsOf(s: SqlStore, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const stop = s.onStatement((sql) => sent.push(sql));
  try {
    await work();
  } finally {
    stop();
  }
  return sent;
}

test.serial(`postgres: updating one flag takes at most ${MAX_ROUND_TRIPS} round trips and commits the change`, async (t) => {
  const s = store!;
  const ns = 'round-trips';
  await s.namespaces.create({ key: ns, name: ns, description: '' });
  const flag = await flagWithVariants(s, ns, 'color', ['blue', 'red']);
  const red = flag.variants.find((v) => v.key === 'red')!;
  const revision = await s.revision(ns);
  const committed: CommittedChange[] = [];
  s.onCommit((c) => void committed.push(c));

  const request = { namespaceKey: ns, key: 'color', name: 'Colour', description: 'renamed', enabled: false, defaultVariantId: red.id, metadata: undefined };
  let answered: unknown;
  const sent = await statementsOf(s, async () => {
    await s.changePolicies.requiredApprovals(ns);
    answered = await s.flags.update(request);
  });

  t.log(`${sent.length} statements:\n${sent.join('\n')}`);
  t.true(sent.length <= MAX_ROUND_TRIPS, `${sent.length} round trips`);
  const stored = await s.flags.get(ns, 'color');
  t.deepEqual(answered, stored);
  t.like(stored, { name: 'Colour', description: 'renamed', enabled: false, defaultVariant: red });
  t.is(await s.revision(ns), revision + 1);
  t.is(committed.length, 1);
  const [change] = committed;
  t.like(change?.record, { resource: 'flag', key: 'color', action: 'updated', revision: revision + 1, before: flag, after: stored });
  await expectFlagsEffect(t, s, change!, ['color']);
  const { events } = await s.audit.list({ namespaceKey: ns, resources: [], actions: [], limit: 1 });
  t.deepEqual(events.map(({ id: _id, ...entry }) => entry), [change!.record]);
});

/** The names of the prepared statements an update of one flag sends through `s`. */
async function preparedNamesOfUpdate(s: SqlStore, ns: string): Promise<Array<string | undefined>> {
  const flag = await s.flags.get(ns, 'color');
  const names: Array<string | undefined> = [];
  const stop = s.onStatement((_sql, preparedAs) => names.push(preparedAs));
  try {
    await s.flags.update({ namespaceKey: ns, key: 'color', name: `${flag.name}!`, description: '', enabled: !flag.enabled, defaultVariantId: '', metadata: undefined });
  } finally {
    stop();
  }
  return names;
}

test.serial('postgres: a write sends its bump-and-read and its writes as prepared statements, named by their text, unless turned off', async (t) => {
  const ns = 'prepared';
  await store!.namespaces.create({ key: ns, name: ns, description: '' });
  await flagWithVariants(store!, ns, 'color', ['blue', 'red']);

  const first = await preparedNamesOfUpdate(store!, ns);
  const named = first.filter((name) => name !== undefined);
  t.true(named.length >= 2, `named: ${JSON.stringify(first)}`);
  t.true(named.every((name) => /^ensign_[0-9a-f]{24}$/.test(name!)));
  // The same write again: the same statements by the same names, so each connection plans them once.
  t.deepEqual(await preparedNamesOfUpdate(store!, ns), first);

  const unprepared = await openStore({ url: db!.url, preparedStatements: false });
  try {
    const names = await preparedNamesOfUpdate(unprepared, ns);
    t.is(names.length, first.length);
    t.deepEqual(names.filter((name) => name !== undefined), []);
    t.like(await unprepared.flags.get(ns, 'color'), { name: 'color!!!' });
  } finally {
    await unprepared.close();
  }
});
