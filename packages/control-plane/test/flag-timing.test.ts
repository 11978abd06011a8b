/**
 * Schedules, windows, ramps and prerequisites over HTTP: the wire shapes (extension fields only
 * when set), the 400s that name their field, the 404s and 409s, and what the snapshot carries.
 */
import test from 'ava';
import type { SnapshotFlag } from '@ensign/engine';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
const HOUR = 3_600_000;
const START = Date.now();
const inHours = (n: number): string => new Date(START + n * HOUR).toISOString();

test.before(async () => {
  h = await startHarness({ snapshots: true });
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'timing', name: 'Timing' } });
  const flags = '/api/v1/namespaces/timing/flags';
  await h.call('POST', flags, { json: { key: 'launch', name: 'Launch', type: 'BOOLEAN_FLAG_TYPE', enabled: false } });
  await h.call('POST', flags, { json: { key: 'plan', name: 'Plan', enabled: true } });
  await h.call('POST', `${flags}/plan/variants`, { json: { key: 'pro', name: 'Pro' } });
  await h.call('POST', '/api/v1/namespaces/timing/segments', { json: { key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' } });
});
test.after.always(() => h?.close());

/** The flag as the namespace's held snapshot has it (a write answers once its revision is held). */
const heldFlag = (key: string): SnapshotFlag => h.source.peek('timing')!.snapshot.document.flags.find((f) => f.key === key)!;

test('a schedule is made, listed, carried by the snapshot and cancelled; the legacy path serves the default namespace', async (t) => {
  const path = '/api/v1/namespaces/timing/flags/launch/schedules';
  const made = await h.call('POST', path, { json: { at: '2999-01-01T09:00:00+02:00', enabled: true } });
  t.is(made.status, 200);
  t.like(made.json, { namespaceKey: 'timing', flagKey: 'launch', at: '2999-01-01T07:00:00.000Z', enabled: true, status: 'pending' });
  t.deepEqual((await h.call('GET', path)).json.schedules.map((s: { id: string }) => s.id), [made.json.id]);
  const held = heldFlag('launch');
  t.deepEqual(held.schedules, [{ at: '2999-01-01T07:00:00.000Z', enabled: true }]);
  const cancelled = await h.call('DELETE', `${path}/${made.json.id}`);
  t.is(cancelled.status, 200);
  t.is(cancelled.json.status, 'cancelled');
  const again = await h.call('DELETE', `${path}/${made.json.id}`);
  t.is(again.status, 409);
  t.regex(again.json.message, /is cancelled, not pending/);
  t.false('schedules' in heldFlag('launch'));
  await h.call('POST', '/api/v1/flags', { json: { key: 'legacy', name: 'Legacy', type: 'BOOLEAN_FLAG_TYPE' } });
  const legacy = await h.call('POST', '/api/v1/flags/legacy/schedules', { json: { at: inHours(5), enabled: true } });
  t.is(legacy.status, 200);
  t.is(legacy.json.namespaceKey, 'default');
});

test('a schedule in the past, without a time, with a bad time, or on a missing flag is refused', async (t) => {
  const path = '/api/v1/namespaces/timing/flags/launch/schedules';
  const past = await h.call('POST', path, { json: { at: '2020-01-01T00:00:00Z', enabled: true } });
  t.is(past.status, 400);
  t.regex(past.json.message, /^invalid field at: must be in the future; 2020-01-01T00:00:00.000Z has passed/);
  t.deepEqual((await h.call('POST', path, { json: { enabled: true } })).json, invalidBody('invalid field at: must not be empty'));
  t.deepEqual((await h.call('POST', path, { json: { at: 'tomorrow' } })).json, invalidBody('invalid field at: must be an RFC 3339 time such as 2026-01-31T12:00:00Z, not "tomorrow"'));
  const missing = await h.call('POST', '/api/v1/namespaces/timing/flags/ghost/schedules', { json: { at: inHours(1), enabled: true } });
  t.is(missing.status, 404);
  t.is((await h.call('GET', '/api/v1/namespaces/timing/flags/ghost/schedules')).status, 404);
  t.is((await h.call('DELETE', `${path}/no-such-id`)).status, 404);
  t.deepEqual((await h.call('GET', path)).json.schedules.filter((s: { at: string }) => s.at.startsWith('2020')), []);
});

test('rules and rollouts answer windows and ramps only when set; bad ones are refused naming the field', async (t) => {
  const rules = '/api/v1/namespaces/timing/flags/plan/rules';
  const plain = await h.call('POST', rules, { json: { segmentKey: 'everyone', rank: 1 } });
  t.false('validFrom' in plain.json);
  const windowed = await h.call('POST', rules, { json: { segmentKey: 'everyone', rank: 2, validFrom: inHours(1), validUntil: inHours(2) } });
  t.like(windowed.json, { validFrom: inHours(1), validUntil: inHours(2) });
  t.deepEqual((await h.call('POST', rules, { json: { segmentKey: 'everyone', rank: 3, validFrom: inHours(2), validUntil: inHours(1) } })).json, invalidBody(`invalid field validUntil: must be later than validFrom (${inHours(2)})`));
  const rollouts = '/api/v1/namespaces/timing/flags/launch/rollouts';
  const ramp = [{ at: inHours(1), percentage: 20 }, { at: inHours(2), percentage: 100 }];
  const ramped = await h.call('POST', rollouts, { json: { rank: 1, threshold: { percentage: 5, value: true }, ramp } });
  t.deepEqual(ramped.json.threshold, { percentage: 5, value: true, ramp });
  const falling = await h.call('POST', rollouts, { json: { rank: 2, threshold: { percentage: 50, value: true, ramp: [{ at: inHours(1), percentage: 40 }] } } });
  t.deepEqual(falling.json, invalidBody('invalid field threshold.ramp[0].percentage: must rise: 40 is not above 50 (threshold.percentage)'));
  const over = await h.call('POST', rollouts, { json: { rank: 2, threshold: { percentage: 50, value: true, ramp: [{ at: inHours(1), percentage: 101 }] } } });
  t.deepEqual(over.json, invalidBody('invalid field threshold.ramp[0].percentage: must be at most 100'));
  const backwards = await h.call('POST', rollouts, { json: { rank: 2, threshold: { percentage: 5, value: true, ramp: [{ at: inHours(2), percentage: 10 }, { at: inHours(1), percentage: 20 }] } } });
  t.deepEqual(backwards.json, invalidBody(`invalid field threshold.ramp[1].at: must be later than the step before (${inHours(2)})`));
  const held = heldFlag('launch');
  t.deepEqual(held.rollouts.map((r) => r.threshold?.ramp), [ramp]);
  t.is((await h.call('GET', rollouts)).json.rules.length, 1, 'refused rollouts left nothing');
});

test('prerequisites: answered only when set, a cycle named, a missing parent or variant named, a required flag not deleted', async (t) => {
  const flags = '/api/v1/namespaces/timing/flags';
  const child = await h.call('POST', flags, { json: { key: 'child', name: 'Child', type: 'BOOLEAN_FLAG_TYPE', prerequisites: [{ flagKey: 'plan', variants: ['pro'] }] } });
  t.is(child.status, 200);
  t.deepEqual(child.json.prerequisites, [{ flagKey: 'plan', variants: ['pro'] }]);
  t.false('prerequisites' in (await h.call('GET', `${flags}/plan`)).json);
  const cycle = await h.call('PUT', `${flags}/plan`, { json: { name: 'Plan', enabled: true, prerequisites: [{ flagKey: 'child', enabled: true }] } });
  t.deepEqual(cycle.json, invalidBody('invalid field prerequisites[0].flagKey: would close a cycle: plan → child → plan'));
  const self = await h.call('PUT', `${flags}/plan`, { json: { name: 'Plan', prerequisites: [{ flagKey: 'plan', enabled: true }] } });
  t.deepEqual(self.json, invalidBody('invalid field prerequisites[0].flagKey: a flag cannot require itself (plan → plan)'));
  const across = await h.call('PUT', `${flags}/child`, { json: { name: 'Child', prerequisites: [{ namespaceKey: 'default', flagKey: 'legacy', enabled: true }] } });
  t.is(across.status, 400);
  t.regex(across.json.message, /^invalid field prerequisites\[0\].namespaceKey: /);
  const neither = await h.call('PUT', `${flags}/child`, { json: { name: 'Child', prerequisites: [{ flagKey: 'plan' }] } });
  t.deepEqual(neither.json, invalidBody('invalid field prerequisites[0]: needs enabled (true or false) or variants (a list of variant keys)'));
  const gold = await h.call('PUT', `${flags}/child`, { json: { name: 'Child', prerequisites: [{ flagKey: 'plan', variants: ['gold'] }] } });
  t.deepEqual(gold.json, invalidBody('invalid field prerequisites[0].variants: flag "plan" has no variant "gold"'));
  const del = await h.call('DELETE', `${flags}/plan`);
  t.is(del.status, 409);
  t.deepEqual(del.json, { code: 9, message: 'flag "timing/plan" is a prerequisite of "child"; remove it from their prerequisites first', details: [] });
  const held = heldFlag('child');
  t.deepEqual(held.prerequisites, [{ flagKey: 'plan', variants: ['pro'] }]);
});
