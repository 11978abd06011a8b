/**
 * Promotion between namespaces: the calls `promotionChanges` proposes, run as a change request
 * (tried, submitted, approved, applied), leave the target's export equal to the source's for what
 * was promoted; a second promotion proposes only the differences, an identical state nothing.
 */
import test from 'ava';
import type { ProposedChange } from '@ensign/core';
import { promotionChanges, type PromotionRequest } from '../src/change-requests/promotion.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
const staging = '/api/v1/namespaces/staging';
const prod = '/api/v1/namespaces/prod';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const windowFrom = inDays(-1);
const windowUntil = inDays(30);
const rampAt = inDays(7);

async function ok(method: string, path: string, json?: unknown): Promise<any> {
  const res = await h.call(method, path, json === undefined ? {} : { json });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json;
}

/** Segments `beta` and `staff`, a variant flag with two rules, a boolean flag with two rollouts, and flags that require them. */
async function seedStaging(): Promise<void> {
  await ok('POST', '/api/v1/namespaces', { key: 'staging', name: 'Staging' });
  await ok('POST', `${staging}/segments`, { key: 'beta', name: 'Beta', matchType: 'ALL_MATCH_TYPE' });
  await ok('POST', `${staging}/segments/beta/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' });
  await ok('POST', `${staging}/segments/beta/constraints`, { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '10' });
  await ok('POST', `${staging}/segments`, { key: 'staff', name: 'Staff', description: 'Employees', matchType: 'ANY_MATCH_TYPE' });
  await ok('POST', `${staging}/segments/staff/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'email', operator: 'suffix', value: '@example.com' });

  await ok('POST', `${staging}/flags`, { key: 'checkout', name: 'Checkout', description: 'Button colour', enabled: true, metadata: { team: 'web' } });
  const blue = await ok('POST', `${staging}/flags/checkout/variants`, { key: 'blue', name: 'Blue', attachment: '{"hex":"#00f"}' });
  const green = await ok('POST', `${staging}/flags/checkout/variants`, { key: 'green', name: 'Green' });
  await ok('PUT', `${staging}/flags/checkout`, { name: 'Checkout', description: 'Button colour', enabled: true, metadata: { team: 'web' }, defaultVariantId: blue.id });
  const first = await ok('POST', `${staging}/flags/checkout/rules`, { segmentKey: 'beta', rank: 1, validFrom: windowFrom, validUntil: windowUntil });
  await ok('POST', `${staging}/flags/checkout/rules/${first.id}/distributions`, { variantId: green.id, rollout: 70 });
  await ok('POST', `${staging}/flags/checkout/rules/${first.id}/distributions`, { variantId: blue.id, rollout: 30 });
  const second = await ok('POST', `${staging}/flags/checkout/rules`, { segmentKeys: ['beta', 'staff'], segmentOperator: 'AND_SEGMENT_OPERATOR', rank: 2 });
  await ok('POST', `${staging}/flags/checkout/rules/${second.id}/distributions`, { variantId: green.id, rollout: 100 });

  await ok('POST', `${staging}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE', enabled: false });
  await ok('POST', `${staging}/flags/banner/rollouts`, { rank: 1, description: 'staff first', segment: { segmentKey: 'staff', value: true } });
  await ok('POST', `${staging}/flags/banner/rollouts`, { rank: 2, threshold: { percentage: 30, value: true, ramp: [{ at: rampAt, percentage: 60 }] }, validUntil: windowUntil });

  // Created before its parent `layout`, so only an order by prerequisites puts its parent first.
  await ok('POST', `${staging}/flags`, { key: 'new-nav', name: 'New nav', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  await ok('POST', `${staging}/flags`, { key: 'layout', name: 'Layout', type: 'VARIANT_FLAG_TYPE', enabled: true });
  await ok('POST', `${staging}/flags/layout/variants`, { key: 'wide', name: 'Wide' });
  await ok('PUT', `${staging}/flags/layout`, { name: 'Layout', enabled: true, prerequisites: [{ flagKey: 'checkout', variants: ['green'] }] });
  await ok('PUT', `${staging}/flags/new-nav`, { name: 'New nav', enabled: true, prerequisites: [{ flagKey: 'banner', enabled: true }, { flagKey: 'layout', enabled: true }] });
}

test.before(async () => {
  h = await startHarness({ changeRequests: true, snapshots: true });
  await seedStaging();
  await ok('POST', '/api/v1/namespaces', { key: 'prod', name: 'Production' });
});
test.after.always(() => h?.close());

const promote = (request: PromotionRequest, target = 'prod') => promotionChanges(h.store, target, request);

/** Runs `changes` as a change request of `ns`: made (tried), submitted, approved and applied. */
async function applyChanges(ns: string, changes: ProposedChange[]): Promise<void> {
  const base = `/api/v1/namespaces/${ns}/change-requests`;
  const made = await ok('POST', base, { title: 'promotion', changes });
  await ok('POST', `${base}/${made.id}/submit`, {});
  await ok('POST', `${base}/${made.id}/approvals`, { digest: made.digest });
  const applied = await ok('POST', `${base}/${made.id}/apply`, {});
  if (applied.state !== 'applied') throw new Error(`not applied: ${JSON.stringify(applied)}`);
}

type Doc = { flags?: Array<Record<string, any>>; segments?: Array<Record<string, any>> };
const byKey = (a: Record<string, any>, b: Record<string, any>) => String(a.key).localeCompare(String(b.key));

/**
 * The export's flags and segments: in key order, variants and constraints sorted too (their order
 * decides nothing, and what one transaction creates shares a creation time); rules, rollouts and
 * distributions keep theirs, which decides evaluations.
 */
async function exported(ns: string, flags?: string[], segments?: string[]): Promise<Doc> {
  const doc = (await ok('GET', `/api/v1/namespaces/${ns}/export?format=json`)) as Doc;
  return {
    flags: (doc.flags ?? [])
      .filter((f) => flags === undefined || flags.includes(f.key))
      .map((f) => ({ ...f, variants: [...(f.variants ?? [])].sort(byKey) }))
      .sort(byKey),
    segments: (doc.segments ?? [])
      .filter((s) => segments === undefined || segments.includes(s.key))
      .map((s) => ({ ...s, constraints: [...(s.constraints ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) }))
      .sort(byKey),
  };
}

const summary = (changes: ProposedChange[]) => changes.map((c) => `${c.method} ${c.path.replace(`${prod}/`, '').replace(/[0-9a-f-]{36}/g, '{id}')}`);

test.serial('into an empty namespace: segments, then flags with their parts, then defaults and prerequisites parents first', async (t) => {
  const changes = await promote({ from: 'staging' });
  t.deepEqual(summary(changes), [
    'POST segments',
    'POST segments/beta/constraints',
    'POST segments/beta/constraints',
    'POST segments',
    'POST segments/staff/constraints',
    'POST flags',
    'POST flags/checkout/variants',
    'POST flags/checkout/variants',
    'POST flags/checkout/rules',
    'POST flags/checkout/rules',
    'POST flags',
    'POST flags/banner/rollouts',
    'POST flags/banner/rollouts',
    'POST flags',
    'POST flags',
    'POST flags/layout/variants',
    'PUT flags/checkout',
    'PUT flags/layout',
    'PUT flags/new-nav',
  ]);
  t.deepEqual(changes[8]!.body, {
    segmentKey: 'beta',
    segmentOperator: 'OR_SEGMENT_OPERATOR',
    rank: 1,
    distributions: [{ variantKey: 'green', rollout: 70 }, { variantKey: 'blue', rollout: 30 }],
    validFrom: windowFrom,
    validUntil: windowUntil,
  });
  t.like(changes[16]!.body, { defaultVariantKey: 'blue', metadata: { team: 'web' }, prerequisites: [] }, 'a variant made in the same request is named by key');

  const revision = h.source.peek('prod')!.revision;
  await applyChanges('prod', changes);
  t.is(h.source.peek('prod')!.revision, revision + 1, 'one revision');
  t.deepEqual(await exported('prod'), await exported('staging'));
  const held = h.source.peek('prod')!.snapshot.document.flags.find((f) => f.key === 'checkout')!;
  t.deepEqual(held.rules[0]!.distributions.map((d) => [d.variantKey, d.rollout]), [['green', 70], ['blue', 30]], 'the buckets fall as in staging');
});

test.serial('promoting what the target already holds proposes nothing', async (t) => {
  t.deepEqual(await promote({ from: 'staging' }), []);
  t.deepEqual(await promote({ from: 'staging', flags: ['checkout'], segments: ['beta'] }), []);
});

test.serial('after changes in the source, only the differences are proposed', async (t) => {
  const checkout = await ok('GET', `${staging}/flags/checkout`);
  const green = checkout.variants.find((v: { key: string }) => v.key === 'green');
  await ok('PUT', `${staging}/flags/checkout/variants/${green.id}`, { key: 'green', name: 'Bright green' });
  await ok('POST', `${staging}/flags/checkout/variants`, { key: 'red', name: 'Red' });
  const rules = (await ok('GET', `${staging}/flags/checkout/rules`)).rules;
  const split = rules[1].distributions[0];
  await ok('PUT', `${staging}/flags/checkout/rules/${rules[1].id}/distributions/${split.id}`, { variantId: split.variantId, rollout: 90 });
  await ok('PUT', `${staging}/flags/banner`, { name: 'Banner', enabled: true });
  const layout = await ok('GET', `${staging}/flags/layout`);
  await ok('DELETE', `${staging}/flags/layout/variants/${layout.variants[0].id}`);
  await ok('POST', `${staging}/flags/layout/variants`, { key: 'narrow', name: 'Narrow' });
  const beta = await ok('GET', `${staging}/segments/beta`);
  const seats = beta.constraints.find((c: { property: string }) => c.property === 'seats');
  await ok('DELETE', `${staging}/segments/beta/constraints/${seats.id}`);
  await ok('POST', `${staging}/segments/beta/constraints`, { type: 'NUMBER_COMPARISON_TYPE', property: 'seats', operator: 'gte', value: '20' });
  await ok('PUT', `${staging}/segments/staff`, { name: 'Staff', description: 'Employees and contractors', matchType: 'ANY_MATCH_TYPE' });
  await ok('PUT', `${staging}/flags/layout`, { name: 'Layout', enabled: true, prerequisites: [{ flagKey: 'checkout', variants: ['red'] }] });

  const changes = await promote({ from: 'staging' });
  t.deepEqual(summary(changes), [
    'DELETE segments/beta/constraints/{id}',
    'POST segments/beta/constraints',
    'PUT segments/staff',
    'PUT flags/checkout/variants/{id}',
    'POST flags/checkout/variants',
    'DELETE flags/checkout/rules/{id}',
    'POST flags/checkout/rules',
    'POST flags/layout/variants',
    'PUT flags/banner',
    'PUT flags/layout',
    'DELETE flags/layout/variants/{id}',
  ]);
  t.like(changes[1]!.body, { property: 'seats', value: '20' });
  t.like(changes[6]!.body, { rank: 2, distributions: [{ variantKey: 'green', rollout: 90 }] }, 'the first rule is kept, the second replaced');
  t.like(changes[9]!.body, { prerequisites: [{ flagKey: 'checkout', variants: ['red'] }], defaultVariantId: '' });

  await applyChanges('prod', changes);
  t.deepEqual(await exported('prod'), await exported('staging'));
  t.deepEqual(await promote({ from: 'staging' }), [], 'and then nothing');
});

test.serial('only the flags or segments named, and only those', async (t) => {
  await ok('PUT', `${staging}/flags/banner`, { name: 'Banner', description: 'Top of the page', enabled: true });
  await ok('PUT', `${staging}/flags/checkout`, { name: 'Checkout', description: 'Button colour', enabled: false, metadata: { team: 'web' }, defaultVariantId: (await ok('GET', `${staging}/flags/checkout`)).defaultVariant.id });
  await ok('POST', `${staging}/segments/staff/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'team', operator: 'eq', value: 'ops' });
  await ok('POST', `${staging}/segments`, { key: 'unused', name: 'Unused', matchType: 'ANY_MATCH_TYPE' });

  t.deepEqual(summary(await promote({ from: 'staging', flags: ['banner'] })), ['PUT flags/banner']);
  t.deepEqual(summary(await promote({ from: 'staging', segments: ['staff', 'unused'] })), ['POST segments/staff/constraints', 'POST segments']);
  const both = await promote({ from: 'staging', flags: ['checkout'], segments: ['unused'] });
  t.deepEqual(summary(both), ['POST segments', 'PUT flags/checkout']);
  await applyChanges('prod', both);
  t.deepEqual(await exported('prod', ['checkout'], ['unused']), await exported('staging', ['checkout'], ['unused']));
  t.notDeepEqual(await exported('prod', ['banner'], ['staff']), await exported('staging', ['banner'], ['staff']), 'what was not named is left as it was');
});

test.serial('a flag of another type in the target is replaced; flags only the target has are left alone', async (t) => {
  await ok('POST', '/api/v1/namespaces', { key: 'qa', name: 'QA' });
  await ok('POST', '/api/v1/namespaces/qa/flags', { key: 'banner', name: 'Banner', type: 'VARIANT_FLAG_TYPE' });
  await ok('POST', '/api/v1/namespaces/qa/flags', { key: 'qa-only', name: 'QA only', type: 'BOOLEAN_FLAG_TYPE' });
  await ok('POST', '/api/v1/namespaces/qa/segments', { key: 'staff', name: 'Staff', matchType: 'ANY_MATCH_TYPE' });
  const changes = await promote({ from: 'staging', flags: ['banner'], segments: ['staff'] }, 'qa');
  t.deepEqual(summary(changes).map((c) => c.replace('/api/v1/namespaces/qa/', '')), [
    'PUT segments/staff',
    'POST segments/staff/constraints',
    'POST segments/staff/constraints',
    'DELETE flags/banner',
    'POST flags',
    'POST flags/banner/rollouts',
    'POST flags/banner/rollouts',
  ]);
  await applyChanges('qa', changes);
  t.deepEqual(await exported('qa', ['banner'], ['staff']), await exported('staging', ['banner'], ['staff']));
  t.is((await h.call('GET', '/api/v1/namespaces/qa/flags/qa-only')).status, 200);
});

test.serial('prerequisites that point the other way in the target are turned around in one request', async (t) => {
  const make = async (ns: string, parent: string, child: string) => {
    await ok('POST', '/api/v1/namespaces', { key: ns, name: ns });
    for (const key of ['a', 'b']) await ok('POST', `/api/v1/namespaces/${ns}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE' });
    await ok('PUT', `/api/v1/namespaces/${ns}/flags/${child}`, { name: child, prerequisites: [{ flagKey: parent, enabled: true }] });
  };
  await make('cycle-src', 'b', 'a');
  await make('cycle-dst', 'a', 'b');
  const changes = await promote({ from: 'cycle-src' }, 'cycle-dst');
  t.deepEqual(summary(changes).map((c) => c.replace('/api/v1/namespaces/cycle-dst/', '')), ['PUT flags/b', 'PUT flags/a']);
  await applyChanges('cycle-dst', changes);
  t.deepEqual(await exported('cycle-dst'), await exported('cycle-src'));
});

test('refusals: unknown namespaces, the target itself, keys the source lacks, references left behind', async (t) => {
  const refusal = async (request: PromotionRequest, target = 'prod') => {
    const err = await t.throwsAsync(promote(request, target));
    return { status: (err as { httpStatus?: number }).httpStatus, message: err!.message };
  };
  t.deepEqual(await refusal({ from: 'nowhere' }), { status: 404, message: 'namespace "nowhere" not found' });
  t.deepEqual(await refusal({ from: 'staging' }, 'nowhere'), { status: 404, message: 'namespace "nowhere" not found' });
  t.deepEqual(await refusal({ from: 'prod' }), { status: 400, message: 'invalid field promoteFrom: is the namespace promoted to ("prod")' });
  t.deepEqual(await refusal({ from: '' }), { status: 400, message: 'invalid field promoteFrom: must not be empty' });
  t.deepEqual(await refusal({ from: 'staging', flags: ['checkout', 'ghost'] }), { status: 400, message: 'invalid field flags: flag "ghost" is not in namespace "staging"' });
  t.deepEqual(await refusal({ from: 'staging', segments: ['phantom'] }), { status: 400, message: 'invalid field segments: segment "phantom" is not in namespace "staging"' });

  await ok('POST', '/api/v1/namespaces', { key: 'bare', name: 'Bare' });
  t.deepEqual(await refusal({ from: 'staging', flags: ['checkout'] }, 'bare'), {
    status: 400,
    message: 'invalid field segments: flag "checkout" uses segment "beta", which namespace "bare" does not have: promote it too',
  });
  t.deepEqual(await refusal({ from: 'staging', flags: ['layout'], segments: ['beta', 'staff'] }, 'bare'), {
    status: 400,
    message: 'invalid field flags: flag "layout" requires flag "checkout", which namespace "bare" does not have: promote it too',
  });
});
