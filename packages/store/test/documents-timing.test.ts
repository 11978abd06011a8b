/**
 * Ensign's extension of the document in and out of the database: prerequisites, rule and rollout
 * windows, ramps and pending schedules exported, imported (with their pending steps, set up by the
 * importing actor) and exported again unchanged; schedules an import finds passed in effect; and
 * prerequisites the namespace cannot meet refused before anything is written.
 */
import test from 'ava';
import { type Actor, Code, decodeFliptDocuments, encodeFliptDocument, type FliptDocument } from '@ensign/core';
import type { DueStep, SqlStore } from '@ensign/store';
import { TEST_DIALECTS } from '@ensign/testkit';
import { inNamespace } from './helpers/document-seed.js';
import { createFlag, createSegment, flagWithVariants, ruleRequest, segmentRollout, thresholdRollout } from './helpers/fixtures.js';
import { expectFlagsEffect } from './helpers/state-slice.js';
import { changesOf, rejects, useStore } from './helpers/store-harness.js';

// The harness's clock runs an hour ahead of the wall clock: these are well before and after it.
const PAST = '2001-01-01T00:00:00.000Z';
const SOON = '2098-01-01T00:00:00.000Z';
const LATER = '2099-01-01T00:00:00.000Z';
const END_OF_TIME = '2100-01-01T00:00:00.000Z';

const IMPORTER: Actor = { authenticationId: 'auth-1', method: 'METHOD_TOKEN', name: 'ci' };

let counter = 0;
const freshKey = () => `timed-${process.pid}-${++counter}`;

const text = (doc: FliptDocument | undefined) => JSON.stringify(doc && encodeFliptDocument(doc, { withVersion: false }));

async function exported(store: SqlStore, key: string): Promise<FliptDocument> {
  const doc = await store.documents.exportNamespace(key);
  if (doc === undefined) throw new Error(`namespace ${key} missing`);
  return doc;
}

const decoded = (value: Record<string, unknown>): FliptDocument[] => decodeFliptDocuments([{ version: '1.4', ...value }]);

/** The namespace's pending steps as `[flag, at]`, by time then flag (steps made together have no other order). */
async function pendingSteps(store: SqlStore, ns: string): Promise<Array<[string, string]>> {
  const steps: DueStep[] = (await store.schedules.due(END_OF_TIME, 100_000)).filter((s) => s.namespaceKey === ns);
  return steps.map((s): [string, string] => [s.flagKey, s.at]).sort(([f1, a1], [f2, a2]) => (a1 < a2 ? -1 : a1 > a2 ? 1 : f1 < f2 ? -1 : f1 > f2 ? 1 : 0));
}

/** Every part of the extension, written through the repositories as the API writes it. */
async function seedTimed(store: SqlStore, ns: string): Promise<void> {
  await createSegment(store, ns, 'beta');
  await flagWithVariants(store, ns, 'color', ['blue', 'red']);
  await store.rules.create({ ...ruleRequest(ns, 'color', ['beta'], 1), validFrom: PAST, validUntil: LATER });
  await createFlag(store, ns, 'dark', 'BOOLEAN_FLAG_TYPE');
  await store.flags.create({
    namespaceKey: ns, key: 'checkout', name: 'Checkout', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined,
    prerequisites: [{ flagKey: 'color', variants: ['blue'] }, { flagKey: 'dark', enabled: true }],
  });
  await store.rollouts.create({ ...segmentRollout(ns, 'checkout', 1, ['beta']), validUntil: SOON });
  await store.rollouts.create({ ...thresholdRollout(ns, 'checkout', 2, 10), threshold: { percentage: 10, value: true, ramp: [{ at: PAST, percentage: 20 }, { at: LATER, percentage: 60 }] } });
  await store.schedules.create({ namespaceKey: ns, flagKey: 'checkout', at: LATER, enabled: true });
  await store.schedules.create({ namespaceKey: ns, flagKey: 'checkout', at: SOON, enabled: false });
  await store.schedules.create({ namespaceKey: ns, flagKey: 'dark', at: SOON, enabled: false });
}

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: export, import, export again: prerequisites, windows, ramps and pending schedules come back the same`, async (t) => {
    const { store } = h();
    const source = await h().namespace();
    await seedTimed(store, source);
    const first = await exported(store, source);
    const checkout = encodeFliptDocument(first).flags as Array<Record<string, unknown>>;
    t.deepEqual(checkout[2], {
      key: 'checkout',
      name: 'Checkout',
      type: 'BOOLEAN_FLAG_TYPE',
      enabled: false,
      rollouts: [
        { segment: { key: 'beta', value: true }, valid_until: SOON },
        { threshold: { percentage: 10, value: true, ramp: [{ at: PAST, percentage: 20 }, { at: LATER, percentage: 60 }] } },
      ],
      prerequisites: [{ flag: 'color', variants: ['blue'] }, { flag: 'dark', enabled: true }],
      schedules: [{ at: SOON, enabled: false }, { at: LATER, enabled: true }],
    });
    t.like((encodeFliptDocument(first).flags as Array<Record<string, any>>)[0]?.rules[0], { valid_from: PAST, valid_until: LATER });

    const target = freshKey();
    await h().as(IMPORTER, () => store.documents.importDocuments([inNamespace(first, target)], {}));
    const again = await exported(store, target);
    t.is(text(inNamespace(again, source)), text(first), 'the same document');

    t.deepEqual(
      await pendingSteps(store, target),
      [['checkout', SOON], ['checkout', SOON], ['dark', SOON], ['checkout', LATER], ['checkout', LATER], ['color', LATER]],
      'the rule\'s end, the segment rollout\'s end, the ramp step and the schedules still to come; passed edges and steps are in effect already',
    );
    const schedules = await store.schedules.list(target, 'checkout');
    t.deepEqual(schedules.map((s) => [s.at, s.enabled, s.status]), [[SOON, false, 'pending'], [LATER, true, 'pending']]);
    t.deepEqual(schedules[0]?.createdBy, IMPORTER, 'set up by whoever imported');
    await expectFlagsEffect(t, store, changesOf(h(), target).at(-1)!, ['color', 'dark', 'checkout'], 'import');
  });

  test(`${dialect}: a schedule whose time has passed is in effect from the import; only those to come are pending`, async (t) => {
    const { store } = h();
    const ns = freshKey();
    const docs = decoded({
      namespace: ns,
      flags: [{ key: 'promo', name: 'Promo', type: 'BOOLEAN_FLAG_TYPE', enabled: false, schedules: [{ at: PAST, enabled: true }, { at: LATER, enabled: false }] }],
    });
    await store.documents.importDocuments(docs, {});
    t.true((await store.flags.get(ns, 'promo')).enabled);
    t.deepEqual((await store.schedules.list(ns, 'promo')).map((s) => [s.at, s.enabled]), [[LATER, false]]);
    t.deepEqual(encodeFliptDocument(await exported(store, ns)).flags, [
      { key: 'promo', name: 'Promo', type: 'BOOLEAN_FLAG_TYPE', enabled: true, schedules: [{ at: LATER, enabled: false }] },
    ]);
  });

  test(`${dialect}: drop replaces the namespace's pending steps with the document's`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await seedTimed(store, ns);
    const docs = decoded({
      namespace: ns,
      flags: [{ key: 'dark', name: 'Dark', type: 'BOOLEAN_FLAG_TYPE', rollouts: [{ threshold: { percentage: 5 }, valid_from: SOON }] }],
    });
    await store.documents.importDocuments(docs, { drop: true });
    t.deepEqual(await pendingSteps(store, ns), [['dark', SOON]]);
    t.deepEqual(await store.schedules.list(ns, 'dark'), []);
  });

  test(`${dialect}: prerequisites are checked against the flags written and those the namespace keeps; a refusal writes nothing`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await flagWithVariants(store, ns, 'color', ['blue', 'red']);
    const revision = await store.revision(ns);
    const requiring = (prerequisites: unknown[], extra: unknown[] = []) =>
      decoded({ namespace: ns, flags: [{ key: 'checkout', name: 'Checkout', type: 'BOOLEAN_FLAG_TYPE', prerequisites }, ...extra] });
    const at = `document 1 (namespace "${ns}"): flags[0].prerequisites[0]`;

    await rejects(t, store.documents.importDocuments(requiring([{ flag: 'ghost', enabled: true }]), {}), Code.InvalidArgument, `${at}.flag: no flag "ghost" in namespace "${ns}"`);
    await rejects(t, store.documents.importDocuments(requiring([{ flag: 'color', variants: ['green'] }]), {}), Code.InvalidArgument, `${at}.variants: flag "color" has no variant "green"`);
    await rejects(
      t,
      store.documents.importDocuments(requiring([{ flag: 'color', variants: ['blue'] }]), { drop: true }),
      Code.InvalidArgument,
      `${at}.flag: no flag "color" in namespace "${ns}" (the import drops what the namespace had)`,
    );
    // With skip-existing the namespace's flag stays, so its variants are the ones that count.
    const skipped = { key: 'color', name: 'Color', variants: [{ key: 'green' }, { key: 'red' }] };
    await rejects(
      t,
      store.documents.importDocuments(requiring([{ flag: 'color', variants: ['green'] }], [skipped]), { skipExisting: true }),
      Code.InvalidArgument,
      `${at}.variants: flag "color" has no variant "green"`,
    );
    t.is(await store.revision(ns), revision, 'nothing written');

    await store.documents.importDocuments(requiring([{ flag: 'color', variants: ['red'] }], [skipped]), { skipExisting: true });
    t.deepEqual((await store.flags.get(ns, 'checkout')).prerequisites, [{ flagKey: 'color', variants: ['red'] }]);
  });

  test(`${dialect}: a cycle across two documents of one namespace is refused`, async (t) => {
    const { store } = h();
    const ns = freshKey();
    const docs = decodeFliptDocuments([
      { namespace: ns, flags: [{ key: 'a', name: 'A', type: 'BOOLEAN_FLAG_TYPE', prerequisites: [{ flag: 'b', enabled: true }] }] },
      { namespace: ns, flags: [{ key: 'b', name: 'B', type: 'BOOLEAN_FLAG_TYPE', prerequisites: [{ flag: 'a', enabled: true }] }] },
    ]);
    await rejects(t, store.documents.importDocuments(docs, {}), Code.InvalidArgument, `document 1 (namespace "${ns}"): flags[0].prerequisites[0].flag: forms a cycle: a → b → a`);
    t.is(await store.documents.exportNamespace(ns), undefined, 'the namespace was not created');
  });
}
