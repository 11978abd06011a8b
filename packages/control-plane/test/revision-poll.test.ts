/**
 * Two stores on one SQLite file stand for two servers on one database: what the other one writes
 * is held here after a poll, what it deletes is dropped, and this process's own writes are never
 * read whole again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { evaluateBoolean } from '@ensign/engine';
import { openStore, type SqlStore } from '@ensign/store';
import type { CreateFlag } from '@ensign/core';
import { RevisionPoll, SnapshotPipeline, type SnapshotStateReader } from '../src/index.js';
import { eventually } from '@ensign/testkit';
import { capturingLogger } from './snapshot-fakes.js';
import { VersionMap } from './version-map.js';

interface Pair {
  dir: string;
  /** This server's store, with its pipeline. */
  here: SqlStore;
  /** The other server's store on the same file. */
  other: SqlStore;
  holder: VersionMap;
  pipeline: SnapshotPipeline;
  lines: ReturnType<typeof capturingLogger>['lines'];
  logger: ReturnType<typeof capturingLogger>['logger'];
  close(): Promise<void>;
}

async function pair(): Promise<Pair> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-poll-'));
  const url = `file:${join(dir, 'shared.db')}`;
  const here = await openStore({ url });
  await here.migrate();
  const other = await openStore({ url });
  const { logger, lines } = capturingLogger();
  const holder = new VersionMap();
  const pipeline = new SnapshotPipeline({ store: here, holder, compile: { hash: 'murmur3' }, logger });
  here.onCommit(pipeline.onCommit);
  await pipeline.loadAll();
  return {
    dir,
    here,
    other,
    holder,
    pipeline,
    lines,
    logger,
    async close() {
      await here.close();
      await other.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const flag = (namespaceKey: string, key: string, enabled: boolean): CreateFlag => ({ namespaceKey, key, name: key, description: '', enabled, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
const enabledIn = (p: Pair, ns: string, key: string): boolean | undefined => {
  const held = p.holder.peek(ns);
  if (held === undefined) return undefined;
  const result = evaluateBoolean(held.compiled, { flagKey: key, entityId: 'e', context: {} }, { now: () => 0 });
  return 'enabled' in result ? result.enabled : undefined;
};

test('a flag created and changed through the other server is evaluated here after a poll', async (t) => {
  const p = await pair();
  t.teardown(() => p.close());
  const poll = new RevisionPoll({ store: p.here, pipeline: p.pipeline, intervalMs: 1000, logger: p.logger });
  await p.other.flags.create(flag('default', 'remote', true));
  t.is(enabledIn(p, 'default', 'remote'), undefined, 'not held before the poll');
  t.deepEqual(await poll.pollOnce(), ['default']);
  t.true(enabledIn(p, 'default', 'remote'));

  await p.other.flags.update({ namespaceKey: 'default', key: 'remote', name: 'remote', description: '', enabled: false, defaultVariantId: '', metadata: undefined });
  await poll.pollOnce();
  t.false(enabledIn(p, 'default', 'remote'), 'disabling it elsewhere is seen here');
  t.is(p.holder.peek('default')?.revision, await p.here.revision('default'));
  t.is(poll.counts.caughtUp, 2);
});

test('a namespace created and deleted through the other server comes and goes here', async (t) => {
  const p = await pair();
  t.teardown(() => p.close());
  const poll = new RevisionPoll({ store: p.here, pipeline: p.pipeline, intervalMs: 1000, logger: p.logger });
  await p.other.namespaces.create({ key: 'team', name: 'team', description: '' });
  await p.other.flags.create(flag('team', 'one', true));
  await poll.pollOnce();
  t.true(enabledIn(p, 'team', 'one'));
  await p.other.namespaces.delete('team', true);
  t.deepEqual(await poll.pollOnce(), ['team']);
  t.is(p.holder.peek('team'), undefined);
  // Re-created elsewhere under the same key: its revisions continue, so it is taken again.
  await p.other.namespaces.create({ key: 'team', name: 'team', description: '' });
  await poll.pollOnce();
  t.truthy(p.holder.peek('team'));
});

test('this server\'s own writes are never read whole by the poll', async (t) => {
  const p = await pair();
  t.teardown(() => p.close());
  const poll = new RevisionPoll({ store: p.here, pipeline: p.pipeline, intervalMs: 1000, logger: p.logger });
  const rebuiltAtStart = p.pipeline.counts.rebuilt;
  for (let i = 0; i < 5; i++) await p.here.flags.create(flag('default', `local-${i}`, true));
  t.deepEqual(await poll.pollOnce(), []);
  t.is(p.pipeline.counts.rebuilt, rebuiltAtStart);
  t.true(enabledIn(p, 'default', 'local-4'));
});

test('a namespace created here after the revisions were read is not taken for deleted', async (t) => {
  const p = await pair();
  t.teardown(() => p.close());
  const stale = await p.here.listNamespaceRevisions();
  const heldBefore = p.pipeline.heldRevisions();
  await p.here.namespaces.create({ key: 'fresh', name: 'fresh', description: '' });
  t.truthy(p.holder.peek('fresh'));
  t.deepEqual(await p.pipeline.catchUp(stale, heldBefore), []);
  t.truthy(p.holder.peek('fresh'), 'still held');
});

test('the timer polls on its own and tells the read cache what moved through other servers, not its own writes', async (t) => {
  const p = await pair();
  t.teardown(() => p.close());
  const heard: string[] = [];
  const poll = new RevisionPoll({ store: p.here, pipeline: p.pipeline, intervalMs: 20, logger: p.logger, onStoredChange: (key) => heard.push(key) });
  // The first poll only takes note of where every namespace stands.
  await poll.pollOnce();
  t.deepEqual(heard, []);
  poll.start();
  t.teardown(() => poll.stop());
  await p.other.namespaces.create({ key: 'elsewhere', name: 'elsewhere', description: '' });
  t.true(await eventually(() => p.holder.peek('elsewhere') !== undefined), 'caught up by the timer');
  t.true(await eventually(() => heard.includes('elsewhere')));
  // Its own write was heard when it committed: told again, it would evict what other servers cached since.
  await p.here.flags.create(flag('default', 'mine', true));
  await p.other.namespaces.create({ key: 'later', name: 'later', description: '' });
  t.true(await eventually(() => heard.includes('later')), 'a poll after the write has run');
  t.false(heard.includes('default'));
  await p.other.flags.create(flag('default', 'theirs', true));
  t.true(await eventually(() => heard.includes('default')), "another server's write is heard");
  await p.other.namespaces.delete('elsewhere', true);
  t.true(await eventually(() => heard.filter((k) => k === 'elsewhere').length === 2 && p.holder.peek('elsewhere') === undefined), JSON.stringify({ heard, held: p.holder.peek('elsewhere')?.revision }));
});

test('a database that does not answer is logged once, counted, and its return logged', async (t) => {
  const p = await pair();
  t.teardown(() => p.close());
  let down = true;
  const store: Pick<SnapshotStateReader, 'listNamespaceRevisions'> = {
    listNamespaceRevisions: () => (down ? Promise.reject(new Error('connection refused')) : p.here.listNamespaceRevisions()),
  };
  const poll = new RevisionPoll({ store, pipeline: p.pipeline, intervalMs: 10, logger: p.logger });
  poll.start();
  t.teardown(() => poll.stop());
  t.true(await eventually(() => poll.counts.failed >= 3));
  t.is(p.lines.filter((l) => l.msg.startsWith('reading the namespace revisions failed')).length, 1);
  await p.other.flags.create(flag('default', 'after-outage', true));
  down = false;
  t.true(await eventually(() => enabledIn(p, 'default', 'after-outage') === true));
  t.true(p.lines.some((l) => l.msg === 'namespace revisions read again from the database'));
});
