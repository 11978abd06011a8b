import test from 'ava';
import type { NamespaceRevision, NamespaceState } from '@ensign/store';
import { SnapshotReconciler, type ReconciledBus, type SnapshotStateReader } from '../src/index.js';
import { capturingLogger } from './snapshot-fakes.js';

/** A database of empty namespaces at given revisions. */
class FakeStore implements SnapshotStateReader {
  constructor(readonly namespaces: Map<string, number>) {}

  async readNamespaceState(key: string): Promise<NamespaceState | undefined> {
    const revision = this.namespaces.get(key);
    if (revision === undefined) return undefined;
    return { namespace: { key } as NamespaceState['namespace'], revision, flags: [], rules: [], rollouts: [], segments: [], schedules: [] };
  }

  async listNamespaceRevisions(): Promise<NamespaceRevision[]> {
    return [...this.namespaces].map(([key, revision]) => ({ key, revision }));
  }
}

/** A bucket of namespace revisions that records what it was asked to do. */
class FakeBus implements ReconciledBus {
  readonly published: Array<{ namespaceKey: string; revision: number }> = [];
  readonly removed: Array<[string, number]> = [];
  failPublishOf = new Set<string>();

  constructor(readonly held: Map<string, number>) {}

  async revisions(): Promise<Map<string, number>> {
    return new Map(this.held);
  }

  /** What the control plane's republish does: the namespace at its stored revision lands in the bucket. */
  async republish(namespaceKey: string, revision: number): Promise<void> {
    if (this.failPublishOf.has(namespaceKey)) throw new Error('NATS unreachable');
    this.published.push({ namespaceKey, revision });
    this.held.set(namespaceKey, revision);
  }

  async remove(namespaceKey: string, revision: number): Promise<void> {
    this.removed.push([namespaceKey, revision]);
    this.held.delete(namespaceKey);
  }
}

function setup(stored: Record<string, number>, bucket: Record<string, number>, intervalMs = 60_000) {
  const store = new FakeStore(new Map(Object.entries(stored)));
  const bus = new FakeBus(new Map(Object.entries(bucket)));
  const { logger, lines } = capturingLogger();
  const reconciler = new SnapshotReconciler({ store, bus, republish: (key, revision) => bus.republish(key, revision), intervalMs, logger });
  return { store, bus, lines, reconciler };
}

test('a pass republishes lagging and missing namespaces at the database revision and removes deleted ones', async (t) => {
  const { bus, reconciler } = setup({ default: 3, shop: 9, fresh: 4, same: 5 }, { default: 3, shop: 7, same: 5, gone: 6 });
  const result = await reconciler.reconcileOnce();
  t.deepEqual(result.republished.sort(), ['fresh', 'shop']);
  t.deepEqual(result.removed, ['gone']);
  t.deepEqual(
    bus.published.map((s) => [s.namespaceKey, s.revision]).sort(),
    [
      ['fresh', 4],
      ['shop', 9],
    ],
  );
  t.deepEqual(bus.removed, [['gone', 6]], 'removed at the revision the bucket held, so a newer re-creation is kept');
  t.deepEqual(await reconciler.reconcileOnce(), { republished: [], removed: [] }, 'a second pass finds nothing to do');
});

test('a bucket ahead of the database is left alone', async (t) => {
  const { bus, reconciler } = setup({ default: 3 }, { default: 8 });
  t.deepEqual(await reconciler.reconcileOnce(), { republished: [], removed: [] });
  t.deepEqual(bus.published, []);
});

test('a publish that fails is logged, does not stop the others, and is retried by the next pass', async (t) => {
  const { bus, lines, reconciler } = setup({ a: 2, b: 2 }, {});
  bus.failPublishOf.add('a');
  t.deepEqual((await reconciler.reconcileOnce()).republished, ['b']);
  t.true(lines.some((l) => l.level === 50 && l.namespace === 'a'));
  bus.failPublishOf.clear();
  t.deepEqual((await reconciler.reconcileOnce()).republished, ['a']);
  t.is(bus.held.get('a'), 2);
});

test('started, it reconciles at once and again every interval until stopped', async (t) => {
  const { store, bus, reconciler } = setup({ a: 1 }, {}, 20);
  reconciler.start();
  t.teardown(() => reconciler.stop());
  const until = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  await until(() => bus.held.get('a') === 1);
  t.is(bus.held.get('a'), 1, 'the start-up pass published the namespace');
  store.namespaces.set('a', 2);
  bus.held.set('stale', 1);
  await until(() => bus.held.get('a') === 2 && !bus.held.has('stale'));
  t.is(bus.held.get('a'), 2, 'a later pass caught up with a write whose publish was lost');
  t.false(bus.held.has('stale'));
  await reconciler.stop();
  const count = bus.published.length;
  store.namespaces.set('a', 3);
  // A second reconciler of the same database on the same interval, started after the stop: once it
  // has made three passes (the start-up one and two intervals), a stopped reconciler that still ran
  // would have made a pass too.
  const controlBus = new FakeBus(new Map([['a', 2]]));
  let passes = 0;
  const counted: ReconciledBus = { revisions: () => (passes++, controlBus.revisions()), remove: (k, r) => controlBus.remove(k, r) };
  const control = new SnapshotReconciler({ store, bus: counted, republish: (key, revision) => controlBus.republish(key, revision), intervalMs: 20, logger: capturingLogger().logger });
  control.start();
  t.teardown(() => control.stop());
  await until(() => passes >= 3);
  t.is(controlBus.held.get('a'), 3, 'the control reconciler ran');
  t.is(bus.published.length, count, 'nothing is published after stop');
});
