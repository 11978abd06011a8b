import test from 'ava';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag } from './helpers/fixtures.js';
import { changesOf, lastChange, useStore } from './helpers/store-harness.js';

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a namespace re-created under a deleted key continues after the delete's revision`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f');
    await createFlag(store, ns, 'g');
    await store.namespaces.delete(ns, true);
    t.like(lastChange(h(), ns), { record: { namespaceKey: ns, revision: 4, action: 'deleted' }, effect: { kind: 'namespace-deleted' } });

    await store.namespaces.create({ key: ns, name: 'again', description: '' });
    t.like(lastChange(h(), ns), { record: { namespaceKey: ns, revision: 5, action: 'created' }, effect: { kind: 'namespace-created' } });
    t.is(await store.revision(ns), 5);
    t.is((await store.readNamespaceState(ns))?.revision, 5);
    t.deepEqual((await store.listNamespaceRevisions()).find((n) => n.key === ns), { key: ns, revision: 5 });
    t.deepEqual((await store.readNamespaceState(ns))?.flags, []);

    await createFlag(store, ns, 'f');
    t.is(await store.revision(ns), 6);
    // The tombstone was consumed and is written again by the next delete.
    await store.namespaces.delete(ns, true);
    await store.namespaces.create({ key: ns, name: 'third', description: '' });
    t.deepEqual(
      changesOf(h(), ns).map((c) => [c.record.revision, c.effect.kind]),
      [
        [1, 'namespace-created'],
        [2, 'flags'],
        [3, 'flags'],
        [4, 'namespace-deleted'],
        [5, 'namespace-created'],
        [6, 'flags'],
        [7, 'namespace-deleted'],
        [8, 'namespace-created'],
      ],
    );
  });

  test(`${dialect}: a tombstone belongs to its key only; other namespaces still start at 1`, async (t) => {
    const { store } = h();
    const gone = await h().namespace();
    await createFlag(store, gone, 'f');
    await store.namespaces.delete(gone, true);
    const fresh = await h().namespace();
    t.is(await store.revision(fresh), 1);
    t.deepEqual(changesOf(h(), fresh).map((c) => [c.record.revision, c.effect.kind]), [[1, 'namespace-created']]);
  });

  test(`${dialect}: creating a key that exists fails and changes no revision; the next delete and create carry on`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await store.namespaces.delete(ns, true);
    await store.namespaces.create({ key: ns, name: 'a', description: '' });
    await t.throwsAsync(store.namespaces.create({ key: ns, name: 'b', description: '' }), { message: `namespace "${ns}" is not unique` });
    t.is(await store.revision(ns), 3);
    await store.namespaces.delete(ns, true);
    await store.namespaces.create({ key: ns, name: 'c', description: '' });
    t.is(await store.revision(ns), 5);
  });

  test(`${dialect}: deletes racing re-creates of one key never hand out a revision twice or go backwards`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    for (let round = 0; round < 6; round++) {
      await Promise.allSettled([
        store.namespaces.delete(ns, true),
        store.namespaces.create({ key: ns, name: `r${round}`, description: '' }),
      ]);
      // Put the namespace back if the round ended with it deleted.
      await store.namespaces.create({ key: ns, name: 'back', description: '' }).catch(() => undefined);
      const revisions = changesOf(h(), ns).map((c) => c.record.revision);
      t.is(new Set(revisions).size, revisions.length, `round ${round}: ${revisions.join(',')}`);
      t.is(await store.revision(ns), Math.max(...revisions), `round ${round}`);
    }
  });
}
