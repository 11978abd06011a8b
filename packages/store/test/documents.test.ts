/** Whole namespaces as Flipt documents: export, import (plain, drop, skip-existing), and what an import commits. */
import test from 'ava';
import { Code, decodeFliptDocuments, encodeFliptDocument, type FliptDocument } from '@ensign/core';
import type { SqlStore } from '@ensign/store';
import { TEST_DIALECTS } from '@ensign/testkit';
import { inNamespace, seedEverything } from './helpers/document-seed.js';
import { createFlag, createSegment, flagWithVariants } from './helpers/fixtures.js';
import { expectFlagsEffect } from './helpers/state-slice.js';
import { changesOf, rejects, useStore } from './helpers/store-harness.js';

let counter = 0;
/** A namespace key nothing has created yet. */
const freshKey = () => `imp-${process.pid}-${++counter}`;

/** The document as a YAML or JSON writer would print it. */
const text = (doc: FliptDocument | undefined, sortByKey = false) => JSON.stringify(doc && encodeFliptDocument(doc, { sortByKey, withVersion: false }));

async function exported(store: SqlStore, key: string): Promise<FliptDocument> {
  const doc = await store.documents.exportNamespace(key);
  if (doc === undefined) throw new Error(`namespace ${key} missing`);
  return doc;
}

/** A document decoded as the CLI and the API decode one. */
const decoded = (value: Record<string, unknown>): FliptDocument[] => decodeFliptDocuments([{ version: '1.4', ...value }]);

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: export, import into a new namespace, export again: the same document`, async (t) => {
    const { store } = h();
    const source = await h().namespace();
    await seedEverything(store, source);
    const first = await exported(store, source);
    t.deepEqual(first.flags.map((f) => f.key), ['color', 'dark', 'plain'], 'flags by creation');
    t.deepEqual(first.segments.map((s) => s.key), ['beta', 'staff', 'internal'], 'segments by creation');

    const target = freshKey();
    const summary = await store.documents.importDocuments([inNamespace(first, target)], {});
    t.like(summary.namespaces[0], { namespaceKey: target, createdNamespace: true, flags: { imported: 3, skipped: 0, removed: 0 }, segments: { imported: 3, skipped: 0, removed: 0 } });
    const again = await exported(store, target);
    t.is(text(inNamespace(again, source)), text(first), 'same order, same fields');
    t.is(text(inNamespace(again, source), true), text(first, true));
    t.deepEqual(again.namespace, { key: target, name: first.namespace.name, description: first.namespace.description });
    t.true((await store.namespaces.list({ limit: 0, offset: 0 })).items.some((n) => n.key === target && !n.protected));
  });

  test(`${dialect}: one change per namespace: one revision, one "imported" record in the history, a flags effect equal to the namespace's state`, async (t) => {
    const { store } = h();
    const source = await h().namespace();
    await seedEverything(store, source);
    const doc = await exported(store, source);
    const existing = await h().namespace();
    await createFlag(store, existing, 'old');
    const revision = await store.revision(existing);
    const created = freshKey();

    const summary = await store.documents.importDocuments([inNamespace(doc, created), inNamespace(doc, existing)], {});
    t.deepEqual(summary.namespaces.map((n) => [n.namespaceKey, n.createdNamespace]), [[created, true], [existing, false]]);
    t.is(summary.namespaces[1]?.revision, revision + 1, 'the revision moves once');
    t.is(await store.revision(existing), revision + 1);

    for (const ns of [created, existing]) {
      const changes = changesOf(h(), ns).filter((c) => c.record.action === 'imported');
      t.is(changes.length, 1, `${ns}: one change`);
      const change = changes[0]!;
      t.like(change.record, { resource: 'namespace', key: ns, action: 'imported', revision: await store.revision(ns) });
      t.like(change.record.after, { key: ns, import: { drop: false, skipExisting: false, flags: { imported: 3, skipped: 0, removed: 0 } } });
      await expectFlagsEffect(t, store, change, ['color', 'dark', 'plain'], ns);
      const history = await store.audit.list({ namespaceKey: ns, resources: [], actions: ['imported'], limit: 10 });
      t.deepEqual(history.events.map((e) => [e.resource, e.key, e.revision]), [['namespace', ns, change.record.revision]]);
    }
    t.deepEqual(changesOf(h(), created).length, 1, 'creating the namespace is part of the import\'s change');
    t.like(changesOf(h(), existing).at(-1)?.record, { before: { key: existing } });
  });

  test(`${dialect}: drop replaces the namespace's flags and segments; the effect names the flags that went`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'gone', ['a']);
    await flagWithVariants(store, ns, 'kept', ['a']);
    await createSegment(store, ns, 'old-segment');
    await store.rules.create({ namespaceKey: ns, flagKey: 'gone', segmentKey: 'old-segment', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1 });
    const docs = decoded({
      namespace: ns,
      flags: [
        { key: 'kept', name: 'Kept again', variants: [{ key: 'b' }], rules: [{ segment: 'new-segment', distributions: [{ variant: 'b', rollout: 100 }] }] },
        { key: 'added', name: 'Added', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
      ],
      segments: [{ key: 'new-segment', name: 'New' }],
    });
    const summary = await store.documents.importDocuments(docs, { drop: true });
    t.like(summary.namespaces[0], { flags: { imported: 2, skipped: 0, removed: 1 }, segments: { imported: 1, skipped: 0, removed: 1 } });
    const after = await exported(store, ns);
    t.deepEqual(after.flags.map((f) => [f.key, f.name, f.variants.map((v) => v.key)]), [['kept', 'Kept again', ['b']], ['added', 'Added', []]]);
    t.deepEqual(after.segments.map((s) => s.key), ['new-segment']);
    const change = changesOf(h(), ns).at(-1)!;
    await expectFlagsEffect(t, store, change, ['gone', 'kept', 'added'], 'drop');
  });

  test(`${dialect}: skip-existing keeps flags and segments of existing keys untouched and writes the rest`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'kept', ['a']);
    await createSegment(store, ns, 'seg');
    const docs = decoded({
      namespace: ns,
      flags: [
        { key: 'kept', name: 'Would rename', variants: [{ key: 'z' }] },
        { key: 'new', name: 'New', variants: [{ key: 'x' }], rules: [{ segment: 'seg', distributions: [{ variant: 'x', rollout: 100 }] }] },
      ],
      segments: [{ key: 'seg', name: 'Would rename' }],
    });
    const summary = await store.documents.importDocuments(docs, { skipExisting: true });
    t.like(summary.namespaces[0], { flags: { imported: 1, skipped: 1, removed: 0 }, segments: { imported: 0, skipped: 1, removed: 0 } });
    const kept = await store.flags.get(ns, 'kept');
    t.deepEqual([kept.name, kept.variants.map((v) => v.key)], ['kept', ['a']]);
    t.is((await store.segments.get(ns, 'seg')).name, 'seg');
    t.is((await store.rules.list(ns, 'new', { limit: 0, offset: 0 })).items[0]?.segmentKey, 'seg', 'a new flag may use a kept segment');
    await expectFlagsEffect(t, store, changesOf(h(), ns).at(-1)!, ['new'], 'skip');
  });

  test(`${dialect}: without drop or skip-existing an existing key is refused, naming the document and path, and nothing is written`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createSegment(store, ns, 'seg');
    const revision = await store.revision(ns);
    const before = changesOf(h(), ns).length;
    const docs = decoded({ namespace: ns, flags: [{ key: 'new', name: 'New' }], segments: [{ key: 'other', name: 'O' }, { key: 'seg', name: 'Again' }] });
    await rejects(t, store.documents.importDocuments(docs, {}), Code.InvalidArgument, `document 1 (namespace "${ns}"): segments[1].key: segment "seg" already exists in namespace "${ns}"`);
    t.is(await store.revision(ns), revision);
    t.is(changesOf(h(), ns).length, before);
    t.deepEqual((await exported(store, ns)).flags, []);
  });

  test(`${dialect}: a reference to a segment that is nowhere is refused before any namespace is written`, async (t) => {
    const { store } = h();
    const first = freshKey();
    const second = await h().namespace();
    const docs = [
      ...decoded({ namespace: first, flags: [{ key: 'fine', name: 'Fine' }] }),
      ...decodeFliptDocuments([{ namespace: second, flags: [{ key: 'f', name: 'F', variants: [{ key: 'v' }], rules: [{ segment: 'ghost' }] }] }]).map((d) => ({ ...d, origin: { index: 2, namespaceKey: second } })),
    ];
    await rejects(t, store.documents.importDocuments(docs, {}), Code.InvalidArgument, `document 2 (namespace "${second}"): flags[0].rules[0].segment: no segment "ghost" in namespace "${second}"`);
    t.is(await store.documents.exportNamespace(first), undefined, 'the first namespace was not created');

    await createSegment(store, second, 'ghost');
    await store.documents.importDocuments(docs, {});
    t.is((await store.rules.list(second, 'f', { limit: 0, offset: 0 })).items[0]?.segmentKey, 'ghost', 'a segment the namespace has is found');
    await rejects(
      t,
      store.documents.importDocuments([inNamespace(docs[1]!, second)], { drop: true }),
      Code.InvalidArgument,
      `document 2 (namespace "${second}"): flags[0].rules[0].segment: no segment "ghost" in namespace "${second}" (the import drops what the namespace had)`,
    );
  });

  test(`${dialect}: documents of one namespace are imported together; a key in two of them is refused unless skip-existing`, async (t) => {
    const { store } = h();
    const ns = freshKey();
    const docs = decodeFliptDocuments([
      { namespace: ns, flags: [{ key: 'a', name: 'A' }], segments: [{ key: 's', name: 'S' }] },
      { namespace: ns, flags: [{ key: 'b', name: 'B', variants: [{ key: 'v' }], rules: [{ segment: 's' }] }, { key: 'a', name: 'A again' }] },
    ]);
    await rejects(t, store.documents.importDocuments(docs, {}), Code.InvalidArgument, `document 2 (namespace "${ns}"): flags[1].key: flag "a" is also in document 1`);
    const summary = await store.documents.importDocuments(docs, { skipExisting: true });
    t.is(summary.namespaces.length, 1);
    t.like(summary.namespaces[0], { flags: { imported: 2, skipped: 1 } });
    t.deepEqual((await exported(store, ns)).flags.map((f) => [f.key, f.name]), [['a', 'A'], ['b', 'B']]);
    t.is(changesOf(h(), ns).length, 1);
  });

  test(`${dialect}: namespace keys by creation`, async (t) => {
    const { store } = h();
    // Keys that sort against their creation order, so an order by key could not pass.
    const [first, second] = [`zz-${process.pid}-created-first`, `aa-${process.pid}-created-second`];
    for (const key of [first, second]) await store.namespaces.create({ key, name: key, description: '' });
    // Other tests of this file create namespaces in the same database meanwhile: only the relative order is this test's.
    const keys = await store.documents.namespaceKeys();
    t.is(keys[0], 'default');
    t.true(keys.includes(first) && keys.includes(second), keys.join(', '));
    t.true(keys.indexOf(first) < keys.indexOf(second), 'the one created first is listed first');
  });
}
