/**
 * Schedules, windows, ramps and prerequisites on the evaluator's surfaces: Flipt clients are served
 * the flags folded at the evaluator's time (never Ensign's fields), and the client-side snapshot, its
 * streams and OFREP's bulk tag move when a boundary passes, without a new version; OFREP says when a
 * prerequisite failed, Flipt's wire keeps its default reason.
 */
import test from 'ava';
import { flag, hold, segment } from '@ensign/testkit/snapshot-fixtures';
import { openStream } from '@ensign/testkit/stream-client';
import type { SnapshotDocument } from '@ensign/engine';
import { InProcessSnapshotSource } from '../src/in-process-snapshot-source.js';
import { startServer } from './helpers/server.js';

const T = Date.parse('2026-03-01T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SNAPSHOT = '/internal/v1/evaluation/snapshot/namespace/default';
const CURRENT = { 'X-Flipt-Accept-Server-Version': '1.61.1' };
const ENSIGN_FIELDS = ['prerequisites', 'schedules', 'validFrom', 'validUntil', 'ramp'];
const ensignFieldsIn = (value: unknown): string[] => ENSIGN_FIELDS.filter((field) => JSON.stringify(value).includes(`"${field}":`));

const distribution = (variantKey: string) => ({ id: '', ruleId: '', variantId: `v-${variantKey}`, variantKey, variantAttachment: '', rollout: 100 });

/**
 * - `launch` (boolean): off, scheduled on at `at`;
 * - `banner` (variant): its rule valid from `at`, default variant `old`;
 * - `gated` (variant): requires `launch` on; `gated-bool` (boolean): likewise.
 */
function timedDocument(at: number): SnapshotDocument {
  return {
    namespace: { key: 'default' },
    flags: [
      flag('launch', { type: 'BOOLEAN_FLAG_TYPE', enabled: false, schedules: [{ at: iso(at), enabled: true }] }),
      flag('banner', {
        rules: [{ id: 'r-banner', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [segment('everyone')], distributions: [distribution('new')], validFrom: iso(at) }],
        defaultVariant: { id: 'v-old', key: 'old', attachment: '' },
      }),
      flag('gated', {
        rules: [{ id: 'r-gated', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [segment('everyone')], distributions: [distribution('on')] }],
        defaultVariant: { id: 'v-off', key: 'off', attachment: '' },
        prerequisites: [{ flagKey: 'launch', enabled: true }],
      }),
      flag('gated-bool', { type: 'BOOLEAN_FLAG_TYPE', enabled: true, prerequisites: [{ flagKey: 'launch', enabled: true }] }),
    ],
  };
}

/** A server whose clock the test moves. */
async function serverAt(t: Parameters<typeof startServer>[0], document: SnapshotDocument, start: number) {
  const source = new InProcessSnapshotSource();
  hold(source, document);
  source.markReady();
  const clock = { ms: start };
  const api = await startServer(t, { source, now: () => clock.ms });
  return { api, clock, source };
}

test('the client-side snapshot is folded at the evaluator\'s time and shows none of Ensign\'s fields', async (t) => {
  const { api, clock } = await serverAt(t, timedDocument(T), T - 1);
  const before = await api.get(SNAPSHOT, CURRENT);
  t.is(before.status, 200, before.text);
  t.deepEqual(ensignFieldsIn(before.body), []);
  const flags = (reply: typeof before) => Object.fromEntries(reply.body.flags.map((f: any) => [f.key, f]));
  t.like(flags(before), { launch: { enabled: false }, banner: { rules: [] }, gated: { rules: [] } });
  t.deepEqual(flags(before)['gated-bool'].rollouts, [{ type: 'THRESHOLD_ROLLOUT_TYPE', rank: 1, threshold: { percentage: 100, value: false } }]);
  clock.ms = T;
  const after = await api.get(SNAPSHOT, CURRENT);
  t.deepEqual(ensignFieldsIn(after.body), []);
  t.like(flags(after), { launch: { enabled: true }, 'gated-bool': { rollouts: [] } });
  t.is(flags(after).banner.rules.length, 1);
  t.is(flags(after).gated.rules.length, 1);
});

test('the ETag moves when a boundary passes: a client following with If-None-Match sees it on time', async (t) => {
  const { api, clock } = await serverAt(t, timedDocument(T), T - 2);
  const first = await api.get(SNAPSHOT, CURRENT);
  const etag = first.headers.get('etag')!;
  clock.ms = T - 1;
  t.is((await api.get(SNAPSHOT, { ...CURRENT, 'If-None-Match': etag })).status, 304);
  clock.ms = T;
  const moved = await api.get(SNAPSHOT, { ...CURRENT, 'If-None-Match': etag });
  t.is(moved.status, 200);
  t.not(moved.headers.get('etag'), etag);
  t.is(moved.body.flags.find((f: any) => f.key === 'launch').enabled, true);
  t.is((await api.get(SNAPSHOT, { ...CURRENT, 'If-None-Match': moved.headers.get('etag')! })).status, 304);
});

test('a flag that failed a prerequisite: OFREP says PREREQUISITE_FAILED and names the parent, Flipt\'s wire says DEFAULT', async (t) => {
  const { api } = await serverAt(t, timedDocument(T), T - 1);
  const ofrep = await api.post('/ofrep/v1/evaluate/flags/gated', { context: { targetingKey: 'u1' } });
  t.deepEqual(ofrep.body, { key: 'gated', reason: 'PREREQUISITE_FAILED', variant: 'off', metadata: { failedPrerequisite: 'launch' }, value: 'off' });
  const ofrepBoolean = await api.post('/ofrep/v1/evaluate/flags/gated-bool', { context: { targetingKey: 'u1' } });
  t.deepEqual(ofrepBoolean.body, { key: 'gated-bool', reason: 'PREREQUISITE_FAILED', variant: 'false', metadata: { failedPrerequisite: 'launch' }, value: false });

  const variant = await api.post('/evaluate/v1/variant', { flagKey: 'gated', entityId: 'u1', context: {} });
  t.like(variant.body, { match: false, reason: 'DEFAULT_EVALUATION_REASON', variantKey: 'off', segmentKeys: [] });
  t.false('prerequisite' in variant.body);
  const boolean = await api.post('/evaluate/v1/boolean', { flagKey: 'gated-bool', entityId: 'u1', context: {} });
  t.like(boolean.body, { enabled: false, reason: 'DEFAULT_EVALUATION_REASON' });
  t.false('prerequisite' in boolean.body);
  const batch = await api.post('/evaluate/v1/batch', { requests: [{ flagKey: 'gated', entityId: 'u1' }, { flagKey: 'gated-bool', entityId: 'u1' }] });
  t.false(batch.text.includes('prerequisite'));
});

test('evaluations follow the evaluator\'s clock: OFREP and /evaluate/v1 on either side of a boundary', async (t) => {
  const { api, clock } = await serverAt(t, timedDocument(T), T - 1);
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'banner', entityId: 'u1' })).body, { variantKey: 'old', match: false });
  t.like((await api.post('/evaluate/v1/boolean', { flagKey: 'launch', entityId: 'u1' })).body, { enabled: false });
  clock.ms = T;
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'banner', entityId: 'u1' })).body, { variantKey: 'new', match: true });
  t.like((await api.post('/evaluate/v1/boolean', { flagKey: 'launch', entityId: 'u1' })).body, { enabled: true });
  t.deepEqual((await api.post('/ofrep/v1/evaluate/flags/gated', { context: { targetingKey: 'u1' } })).body, {
    key: 'gated',
    reason: 'TARGETING_MATCH',
    variant: 'on',
    metadata: { segments: 'everyone' },
    value: 'on',
  });
});

test('OFREP bulk: a variant flag scheduled on is listed once it is on, and the bulk ETag moves with the boundary', async (t) => {
  const document = timedDocument(T);
  document.flags.push(flag('later', { enabled: false, schedules: [{ at: iso(T), enabled: true }] }));
  const { api, clock } = await serverAt(t, document, T - 1);
  const keys = (reply: { body: any }) => reply.body.flags.map((f: { key: string }) => f.key);
  const before = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } });
  t.deepEqual(keys(before), ['launch', 'banner', 'gated', 'gated-bool']);
  const etag = before.headers.get('etag')!;
  t.is((await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } }, { 'If-None-Match': etag })).status, 304);
  clock.ms = T;
  const after = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } }, { 'If-None-Match': etag });
  t.is(after.status, 200);
  t.deepEqual(keys(after), ['launch', 'banner', 'gated', 'gated-bool', 'later']);
  t.like(after.body.flags.find((f: { key: string }) => f.key === 'gated'), { reason: 'TARGETING_MATCH', value: 'on' });
});

test('a snapshot stream is sent the folded state, and again when a boundary passes without a new version', async (t) => {
  const boundary = Date.now() + 400;
  const source = new InProcessSnapshotSource();
  hold(source, timedDocument(boundary));
  source.markReady();
  const api = await startServer(t, { source, now: Date.now });
  const stream = await openStream(`${api.url}/client/v2/environments/default/namespaces/default/stream`, { Accept: 'application/json' });
  t.teardown(() => stream.close());
  const first = await stream.message(0);
  t.deepEqual(ensignFieldsIn(first), []);
  t.is(first.flags.find((f: any) => f.key === 'launch').enabled, false);
  const second = await stream.message(1, 5000);
  t.true(Date.now() >= boundary);
  t.deepEqual(ensignFieldsIn(second), []);
  t.is(second.flags.find((f: any) => f.key === 'launch').enabled, true);
  t.not(second.digest, first.digest);
  // The last boundary passed: nothing more to send until the namespace changes.
  t.true(await stream.quietFor(300));
});
