import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { compileSnapshot, evaluateBoolean, evaluateVariant, SnapshotInvalidError } from '@ensign/engine';
import type { CompileOptions, CompiledSnapshot, SnapshotDocument } from '@ensign/engine';
import { openStore, type SqlStore } from '@ensign/store';
import { CommitRelay, SnapshotPublisher } from '../src/index.js';
import type { LogLine } from './harness.js';
import { capturingLogger, GatedReader, RecordingSink, tick } from './snapshot-fakes.js';

interface Setup {
  store: SqlStore;
  reader: GatedReader;
  sink: RecordingSink;
  lines: LogLine[];
  publisher: SnapshotPublisher;
  relay: CommitRelay;
  close(): Promise<void>;
}

type Compile = (document: SnapshotDocument, options: CompileOptions) => CompiledSnapshot;

async function setup(options: { compile?: Compile; attach?: boolean } = {}): Promise<Setup> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-pub-'));
  const relay = new CommitRelay();
  const store = await openStore({ url: `file:${join(dir, 'x.db')}`, onCommit: relay.onCommit });
  await store.migrate();
  const reader = new GatedReader(store);
  const sink = new RecordingSink();
  const { logger, lines } = capturingLogger();
  const publisher = new SnapshotPublisher({
    store: reader,
    sink,
    hash: 'murmur3',
    logger,
    ...(options.compile === undefined ? {} : { compile: options.compile }),
  });
  if (options.attach !== false) relay.attach(publisher.notify);
  return {
    store, reader, sink, lines, publisher, relay,
    async close() {
      reader.release();
      await publisher.settled();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const flag = (store: SqlStore, namespaceKey: string, key: string) =>
  store.flags.create({ namespaceKey, key, name: key, description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: undefined });

/** Refuses any document holding a flag named `poison`, as the engine refuses a broken one. */
const poisonCompile: Compile = (document, options) => {
  const at = document.flags.findIndex((f) => f.key === 'poison');
  if (at >= 0) throw new SnapshotInvalidError([{ path: `$.flags[${at}]`, message: 'poisoned' }]);
  return compileSnapshot(document, options);
};

const increasing = (xs: number[]): boolean => xs.every((x, i) => i === 0 || x > (xs[i - 1] as number));

test('loadAll publishes every namespace, compiled by the engine', async (t) => {
  const s = await setup({ attach: false });
  try {
    await s.store.namespaces.create({ key: 'team', name: 'Team', description: '' });
    await flag(s.store, 'team', 'f');
    t.deepEqual(s.sink.events, []);

    await s.publisher.loadAll();
    t.is(s.sink.held.get('default')?.revision, await s.store.revision('default'));
    t.is(s.sink.held.get('team')?.revision, await s.store.revision('team'));
    t.deepEqual(s.sink.flagKeysOf('team'), ['f']);
    const team = s.sink.events.find((e) => e.kind === 'put' && e.namespaceKey === 'team');
    t.is(team?.kind === 'put' ? team.compiled.flags.get('f')?.type : undefined, 'VARIANT_FLAG_TYPE');
    t.truthy(s.lines.find((l) => l.msg === 'snapshots loaded' && l.namespaces === 2));
  } finally {
    await s.close();
  }
});

test('each write is published with its revision, and revisions only ever go up', async (t) => {
  const s = await setup();
  try {
    await s.publisher.settled();
    await s.store.namespaces.create({ key: 'w', name: 'W', description: '' });
    await s.publisher.settled();
    t.is(s.sink.held.get('w')?.revision, 1);
    for (const key of ['a', 'b', 'c']) {
      await flag(s.store, 'w', key);
      await s.publisher.settled();
      t.is(s.sink.held.get('w')?.revision, await s.store.revision('w'));
    }
    t.deepEqual(s.sink.flagKeysOf('w'), ['a', 'b', 'c']);
    await s.store.flags.delete('w', 'b');
    await s.publisher.settled();
    t.deepEqual(s.sink.flagKeysOf('w'), ['a', 'c']);
    t.deepEqual(s.sink.revisionsOf('w'), [1, 2, 3, 4, 5]);
  } finally {
    await s.close();
  }
});

test('a burst of 50 concurrent writes to one namespace costs one more rebuild and ends at the stored revision', async (t) => {
  const s = await setup();
  try {
    await s.store.namespaces.create({ key: 'burst', name: 'B', description: '' });
    await s.publisher.settled();
    const readsBefore = s.reader.reads;
    s.reader.close();
    await Promise.all(Array.from({ length: 50 }, (_, i) => flag(s.store, 'burst', `f${i}`)));
    // The first commit's rebuild is waiting on the gate; the other 49 only marked the namespace stale.
    t.is(s.reader.reads - readsBefore, 1);
    s.reader.release();
    await s.publisher.settled();
    t.is(s.reader.reads - readsBefore, 2);
    const revision = await s.store.revision('burst');
    t.is(revision, 51);
    t.is(s.sink.held.get('burst')?.revision, revision);
    t.is(s.sink.flagKeysOf('burst')?.length, 50);
    t.deepEqual(s.sink.revisionsOf('burst'), [1, 51]);
  } finally {
    await s.close();
  }
});

test('settled() waits for the notifications received before it, not for later ones', async (t) => {
  const s = await setup();
  try {
    await t.notThrowsAsync(s.publisher.settled());
    s.reader.close();
    await flag(s.store, 'default', 'first');
    let firstSettled = false;
    const first = s.publisher.settled().then(() => (firstSettled = true));
    await flag(s.store, 'default', 'second');
    await tick();
    t.false(firstSettled);
    t.is(s.sink.held.get('default'), undefined);

    // Let the rebuild already waiting through, and hold the next one.
    s.reader.release();
    s.reader.close();
    await first;
    t.truthy(s.sink.held.get('default'));
    let secondSettled = false;
    const second = s.publisher.settled().then(() => (secondSettled = true));
    await tick();
    t.false(secondSettled);
    s.reader.release();
    await second;
    t.deepEqual(s.sink.flagKeysOf('default'), ['first', 'second']);
    t.is(s.sink.held.get('default')?.revision, await s.store.revision('default'));
  } finally {
    await s.close();
  }
});

test('a deleted namespace is removed at its delete revision; re-created, it is published after it', async (t) => {
  const s = await setup();
  try {
    await s.store.namespaces.create({ key: 'gone', name: 'G', description: '' });
    await flag(s.store, 'gone', 'f');
    await s.publisher.settled();
    await s.store.namespaces.delete('gone', true);
    await s.publisher.settled();
    t.deepEqual(s.sink.events.at(-1), { kind: 'remove', namespaceKey: 'gone', revision: 3 });
    t.false(s.sink.held.has('gone'));

    await s.store.namespaces.create({ key: 'gone', name: 'Back', description: '' });
    await s.publisher.settled();
    t.is(s.sink.held.get('gone')?.revision, 4);
    t.deepEqual(s.sink.flagKeysOf('gone'), []);
    t.deepEqual(s.sink.revisionsOf('gone'), [1, 2, 3, 4]);
  } finally {
    await s.close();
  }
});

test('a namespace that does not compile is logged and keeps its previous snapshot; the next write retries', async (t) => {
  const s = await setup({ compile: poisonCompile });
  try {
    await flag(s.store, 'default', 'good');
    await s.publisher.settled();
    const good = s.sink.held.get('default');
    t.deepEqual(s.sink.flagKeysOf('default'), ['good']);

    // The write itself succeeds; only its publication fails.
    await t.notThrowsAsync(flag(s.store, 'default', 'poison'));
    await s.publisher.settled();
    t.is(s.sink.held.get('default'), good);
    const logged = s.lines.find((l) => l.level === 50 && l.namespace === 'default');
    t.like(logged, {
      msg: 'snapshot not published: the namespace does not compile; the previous snapshot stays',
      revision: await s.store.revision('default'),
      paths: ['$.flags[1]'],
    });

    await s.store.flags.delete('default', 'poison');
    await s.publisher.settled();
    t.is(s.sink.held.get('default')?.revision, await s.store.revision('default'));
    t.deepEqual(s.sink.flagKeysOf('default'), ['good']);
  } finally {
    await s.close();
  }
});

test('a failed read is logged and keeps the previous snapshot; the next write retries', async (t) => {
  const s = await setup();
  try {
    await flag(s.store, 'default', 'a');
    await s.publisher.settled();
    const before = s.sink.held.get('default');
    s.reader.failNext();
    await flag(s.store, 'default', 'b');
    await s.publisher.settled();
    t.is(s.sink.held.get('default'), before);
    t.like(s.lines.find((l) => l.level === 50), {
      namespace: 'default',
      msg: 'snapshot not rebuilt: reading the namespace failed; the previous snapshot stays',
    });
    await flag(s.store, 'default', 'c');
    await s.publisher.settled();
    t.deepEqual(s.sink.flagKeysOf('default'), ['a', 'b', 'c']);
  } finally {
    await s.close();
  }
});

test('loadAll carries on past a namespace that fails, and rejects when namespaces cannot be listed', async (t) => {
  const s = await setup({ compile: poisonCompile, attach: false });
  try {
    await s.store.namespaces.create({ key: 'bad', name: 'Bad', description: '' });
    await flag(s.store, 'bad', 'poison');
    await s.store.namespaces.create({ key: 'fine', name: 'Fine', description: '' });
    await s.publisher.loadAll();
    t.deepEqual([...s.sink.held.keys()].sort(), ['default', 'fine']);
    t.truthy(s.lines.find((l) => l.level === 50 && l.namespace === 'bad'));

    const { logger } = capturingLogger();
    const broken = new SnapshotPublisher({
      store: { readNamespaceState: () => Promise.resolve(undefined), listNamespaceRevisions: () => Promise.reject(new Error('db down')) },
      sink: new RecordingSink(),
      hash: 'murmur3',
      logger,
    });
    await t.throwsAsync(broken.loadAll(), { message: 'db down' });
  } finally {
    await s.close();
  }
});

test('the sink sees revisions of every namespace in increasing order under mixed concurrent writes', async (t) => {
  const s = await setup();
  try {
    for (const ns of ['x', 'y']) await s.store.namespaces.create({ key: ns, name: ns, description: '' });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => flag(s.store, i % 2 === 0 ? 'x' : 'y', `f${i}`)),
    );
    await s.publisher.settled();
    for (const ns of ['x', 'y']) {
      t.true(increasing(s.sink.revisionsOf(ns)), s.sink.revisionsOf(ns).join(','));
      t.is(s.sink.held.get(ns)?.revision, await s.store.revision(ns));
      t.is(s.sink.flagKeysOf(ns)?.length, 20);
    }
  } finally {
    await s.close();
  }
});

test('a namespace written through the store publishes a document the engine compiles and evaluates', async (t) => {
  const s = await setup();
  try {
    const { store } = s;
    const ns = 'full';
    await store.namespaces.create({ key: ns, name: 'Full', description: '' });
    for (const key of ['pro', 'staff']) await store.segments.create({ namespaceKey: ns, key, name: key, description: '', matchType: 'ALL_MATCH_TYPE' });
    await store.constraints.create({ namespaceKey: ns, segmentKey: 'pro', type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: '' });
    await store.constraints.create({ namespaceKey: ns, segmentKey: 'staff', type: 'BOOLEAN_COMPARISON_TYPE', property: 'staff', operator: 'true', value: '', description: '' });
    await flag(s.store, ns, 'color');
    const blue = await store.variants.create({ namespaceKey: ns, flagKey: 'color', key: 'blue', name: '', description: '', attachment: '{"hex":"#00f"}' });
    const rule = await store.rules.create({ namespaceKey: ns, flagKey: 'color', segmentKey: '', segmentKeys: ['staff', 'pro'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 1 });
    await store.distributions.create({ namespaceKey: ns, flagKey: 'color', ruleId: rule.id, variantId: blue.id, rollout: 100 });
    await store.flags.create({ namespaceKey: ns, key: 'beta', name: 'Beta', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
    await store.rollouts.create({ namespaceKey: ns, flagKey: 'beta', rank: 1, description: '', threshold: undefined, segment: { segmentKey: 'staff', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true } });
    await s.publisher.settled();

    const held = s.sink.events.at(-1);
    if (held?.kind !== 'put') return t.fail('nothing published');
    t.is(held.revision, await store.revision(ns));
    const [color, beta] = held.snapshot.document.flags;
    t.deepEqual(color?.rules.map((r) => [r.id, r.segments.map((g) => g.key), r.distributions.map((d) => d.variantKey)]), [[rule.id, ['staff', 'pro'], ['blue']]]);
    t.deepEqual(beta?.rollouts.map((r) => r.segment?.segments.map((g) => g.key)), [['staff']]);

    const env = { now: Date.now() };
    const context = { plan: 'pro', staff: 'true' };
    t.like(evaluateVariant(held.compiled, { flagKey: 'color', entityId: 'u1', context }, env), {
      match: true, reason: 'MATCH_EVALUATION_REASON', variantKey: 'blue', variantAttachment: '{"hex":"#00f"}', segmentKeys: ['staff', 'pro'],
    });
    t.like(evaluateVariant(held.compiled, { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } }, env), { match: false });
    t.like(evaluateBoolean(held.compiled, { flagKey: 'beta', entityId: 'u1', context }, env), { enabled: true, reason: 'MATCH_EVALUATION_REASON' });
  } finally {
    await s.close();
  }
});
