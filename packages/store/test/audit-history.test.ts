/** The stored history: what each listing filter selects, paging while writes go on, refused writes, pruning. */
import test from 'ava';
import type { Actor, AuditQuery } from '@ensign/core';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag, createSegment, flagWithVariants } from './helpers/fixtures.js';
import { useStore } from './helpers/store-harness.js';

const ANN: Actor = { authenticationId: 'ann-id', method: 'METHOD_OIDC', name: 'ann@corp.example' };
const CI: Actor = { authenticationId: 'ci-id', method: 'METHOD_TOKEN', name: 'ci' };

const query = (over: Partial<AuditQuery>): AuditQuery => ({ resources: [], actions: [], limit: 100, ...over });
const summary = (e: { resource: string; key: string; action: string }) => `${e.resource}:${e.key}:${e.action}`;

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: the filters select by namespace, type, key or parent key, actor, action and time`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const other = await h().namespace();
    await h().as(ANN, () => flagWithVariants(store, ns, 'color', ['red']));
    await h().as(CI, () => createSegment(store, ns, 'color'));
    await h().as(CI, () => store.flags.update({ namespaceKey: ns, key: 'color', name: 'Colour', description: '', enabled: false, defaultVariantId: '', metadata: undefined }));
    await h().as(ANN, () => createFlag(store, other, 'color'));

    const all = await store.audit.list(query({ namespaceKey: ns }));
    t.deepEqual(all.events.map(summary).slice(0, 4), ['flag:color:updated', 'segment:color:created', 'variant:' + all.events[2]?.key + ':created', 'flag:color:created']);
    t.is(all.totalCount, 5, 'the namespace creation is in its history too');
    t.is(all.events[2]?.parentKey, 'color', 'a variant names its flag');

    const flagHistory = await store.audit.list(query({ namespaceKey: ns, key: 'color', resources: ['flag', 'variant'] }));
    t.deepEqual(flagHistory.events.map((e) => e.resource), ['flag', 'variant', 'flag']);
    const byCi = await store.audit.list(query({ namespaceKey: ns, actor: 'ci' }));
    t.deepEqual(byCi.events.map(summary), ['flag:color:updated', 'segment:color:created']);
    const byAnnId = await store.audit.list(query({ actor: 'ann-id', key: 'color', resources: ['flag'] }));
    t.true(byAnnId.events.every((e) => e.actor?.name === 'ann@corp.example'));
    t.deepEqual([...new Set(byAnnId.events.map((e) => e.namespaceKey))].sort(), [ns, other].sort(), 'without a namespace every namespace is searched');
    const updates = await store.audit.list(query({ namespaceKey: ns, actions: ['updated'] }));
    t.deepEqual(updates.events.map(summary), ['flag:color:updated']);
    t.deepEqual(updates.events[0]?.before && (updates.events[0].before as { name: string }).name, 'color');
    t.deepEqual(updates.events[0]?.after && (updates.events[0].after as { name: string }).name, 'Colour');

    const segmentAt = all.events[1]?.at as string;
    const window = await store.audit.list(query({ namespaceKey: ns, from: segmentAt, to: all.events[0]?.at }));
    t.deepEqual(window.events.map(summary), ['segment:color:created'], 'from is inclusive, to exclusive');
  });

  test(`${dialect}: pages follow entry ids, so writes made between pages shift nothing`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    for (let i = 0; i < 5; i++) await createFlag(store, ns, `f${i}`);
    const first = await store.audit.list(query({ namespaceKey: ns, resources: ['flag'], limit: 2 }));
    t.deepEqual(first.events.map((e) => e.key), ['f4', 'f3']);
    t.is(first.totalCount, 5);
    t.not(first.nextPageToken, '');
    await createFlag(store, ns, 'late');
    const { decodePageCursor } = await import('@ensign/core');
    const beforeId = decodePageCursor(first.nextPageToken).key as string;
    const second = await store.audit.list(query({ namespaceKey: ns, resources: ['flag'], limit: 2, beforeId }));
    t.deepEqual(second.events.map((e) => e.key), ['f2', 'f1']);
    const last = await store.audit.list(query({ namespaceKey: ns, resources: ['flag'], limit: 2, beforeId: decodePageCursor(second.nextPageToken).key as string }));
    t.deepEqual(last.events.map((e) => e.key), ['f0']);
    t.is(last.nextPageToken, '', 'the last page says so');
  });

  test(`${dialect}: a refused write leaves no entry, a delete of nothing adds none`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'dup');
    const before = (await store.audit.list(query({ namespaceKey: ns }))).totalCount;
    await t.throwsAsync(() => createFlag(store, ns, 'dup'));
    await t.throwsAsync(() => store.variants.create({ namespaceKey: ns, flagKey: 'missing', key: 'v', name: 'v', description: '', attachment: '' }));
    await store.flags.delete(ns, 'never-there');
    t.is((await store.audit.list(query({ namespaceKey: ns }))).totalCount, before);
  });

  // Serial (ava runs serial tests first): pruning by age reaches every namespace's entries.
  test.serial(`${dialect}: pruning deletes the entries older than the cut-off and keeps the rest`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'old');
    const cut = new Date(Date.parse((await store.audit.list(query({ namespaceKey: ns, limit: 1 }))).events[0]?.at as string) + 500);
    await createFlag(store, ns, 'new');
    const removed = await store.audit.prune(cut);
    t.true(removed >= 2, `the namespace creation and the old flag at least (${removed})`);
    t.deepEqual((await store.audit.list(query({ namespaceKey: ns }))).events.map((e) => e.key), ['new']);
  });
}
