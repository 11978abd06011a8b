/**
 * Creation times through an import: a flag or segment created keeps the time its source server
 * reported (normalised as every stamp is), one replaced by `drop` keeps its row's, and the change's
 * flags effect (what snapshots are patched from) holds the same times as the namespace read whole.
 */
import test from 'ava';
import { decodeFliptDocuments, type FliptDocument } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createSegment, flagWithVariants } from './helpers/fixtures.js';
import { expectFlagsEffect } from './helpers/state-slice.js';
import { changesOf, useStore } from './helpers/store-harness.js';

/** One document of `namespace` with these flags and segments, carrying `times` as a source server reports them. */
function withTimes(namespace: string, flags: string[], segments: string[], times: { flags?: Record<string, string>; segments?: Record<string, string> }): FliptDocument[] {
  const [doc] = decodeFliptDocuments([{ version: '1.4', namespace, flags: flags.map((key) => ({ key, name: key })), segments: segments.map((key) => ({ key, name: key })) }]);
  return [{ ...doc!, createdAt: { flags: new Map(Object.entries(times.flags ?? {})), segments: new Map(Object.entries(times.segments ?? {})) } }];
}

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: a created flag and segment keep the source's creation time, written as every stamp is; the effect and a whole read agree`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const docs = withTimes(ns, ['nanos', 'offset', 'future', 'garbled', 'plain'], ['seg'], {
      flags: { nanos: '2024-01-02T03:04:05.123456789Z', offset: '2024-01-02T05:04:05+02:00', future: '2999-01-01T00:00:00Z', garbled: 'last tuesday' },
      segments: { seg: '2023-06-01T00:00:00Z' },
    });
    await store.documents.importDocuments(docs, {});

    const flags = await store.flags.list(ns, { limit: 0, offset: 0 });
    const created = new Map(flags.items.map((f) => [f.key, f.createdAt]));
    t.is(created.get('nanos'), '2024-01-02T03:04:05.123Z');
    t.is(created.get('offset'), '2024-01-02T03:04:05.000Z');
    // One import stamps its rows a millisecond apart.
    const nearWrite = (key: string) => Math.abs(Date.parse(created.get(key)!) - Date.parse(created.get('plain')!)) < 1000;
    t.true(nearWrite('future'), 'a time after the write is not kept');
    t.true(nearWrite('garbled'), 'what is no time is not kept');
    t.true(created.get('plain')! > '2025', 'a flag without a time is stamped with the write');
    t.is((await store.segments.get(ns, 'seg')).createdAt, '2023-06-01T00:00:00.000Z');
    t.deepEqual(flags.items.map((f) => f.key).slice(0, 2), ['offset', 'nanos'], 'listed by creation');

    const state = await store.readNamespaceState(ns);
    t.deepEqual(state?.flags.map((f) => [f.key, f.createdAt]).slice(0, 2), [['offset', '2024-01-02T03:04:05.000Z'], ['nanos', '2024-01-02T03:04:05.123Z']]);
    await expectFlagsEffect(t, store, changesOf(h(), ns).at(-1)!, ['nanos', 'offset', 'future', 'garbled', 'plain'], 'import');
  });

  test(`${dialect}: with drop, a flag or segment the namespace had keeps its row's creation time; a new one takes the source's`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const kept = await flagWithVariants(store, ns, 'kept', ['a']);
    const segment = await createSegment(store, ns, 'seg');
    const docs = withTimes(ns, ['kept', 'added'], ['seg'], { flags: { kept: '2020-01-01T00:00:00Z', added: '2021-01-01T00:00:00Z' }, segments: { seg: '2020-01-01T00:00:00Z' } });
    await store.documents.importDocuments(docs, { drop: true });

    t.is((await store.flags.get(ns, 'kept')).createdAt, kept.createdAt);
    t.is((await store.flags.get(ns, 'added')).createdAt, '2021-01-01T00:00:00.000Z');
    t.is((await store.segments.get(ns, 'seg')).createdAt, segment.createdAt);
    await expectFlagsEffect(t, store, changesOf(h(), ns).at(-1)!, ['kept', 'added'], 'drop');
  });
}
