/**
 * `POST /internal/v1/usage`: a `UsageBatch` from an in-process evaluator is stored once by its id
 * and read back by the usage and analytics routes; a batch that is not one is a 400 naming the
 * field; the route is authenticated as evaluations are, a scoped token held to its namespace by
 * every count.
 */
import test from 'ava';
import { issueToken } from '@ensign/auth';
import { type AnalyticsHarness, startAnalyticsHarness } from './analytics-harness.js';
import { bearer, UNAUTHENTICATED } from './auth-harness.js';
import { invalidBody } from './harness.js';

const T0 = Date.UTC(2026, 10, 26, 4, 0, 0);
const USAGE = '/internal/v1/usage';

const batch = (id: string, namespaceKey = 'default', count = 3) => ({
  id,
  at: T0,
  counts: [
    { namespaceKey, flagKey: 'color', value: 'red', reason: 'MATCH_EVALUATION_REASON', count },
    { namespaceKey, flagKey: 'color', value: 'blue', reason: 'DEFAULT_EVALUATION_REASON', count: 1 },
  ],
});

const flagUsage = (h: AnalyticsHarness, ns: string, headers: Record<string, string> = {}) =>
  h.get(`/api/v1/namespaces/${ns}/flags/color/usage?from=${new Date(T0 - 60_000).toISOString()}&to=${new Date(T0 + 60_000).toISOString()}`, headers);

async function withFlags(h: AnalyticsHarness): Promise<void> {
  await h.store.namespaces.create({ key: 'team', name: 'Team', description: '' });
  for (const ns of ['default', 'team']) {
    await h.store.flags.create({ namespaceKey: ns, key: 'color', name: 'Color', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: undefined });
  }
}

test('a batch is stored once by its id and read back by the usage routes', async (t) => {
  const h = await startAnalyticsHarness({ start: T0 + 1000 });
  t.teardown(() => h.close());
  await withFlags(h);
  const first = await h.post(USAGE, batch('provider-1'));
  t.is(first.status, 200, first.text);
  t.deepEqual(first.json, {});
  t.is((await h.post(USAGE, batch('provider-1'))).status, 200, 'a batch sent again is answered as stored');
  const read = await flagUsage(h, 'default');
  t.is(read.json.evaluations, 4, 'counted once');
  t.deepEqual(read.json.values, [{ value: 'red', count: 3 }, { value: 'blue', count: 1 }]);
  t.is((await h.post(USAGE, batch('provider-2', 'default', 5))).status, 200);
  t.is((await flagUsage(h, 'default')).json.evaluations, 10);
});

test('a batch dated after the server\'s clock is counted at the server\'s time', async (t) => {
  const h = await startAnalyticsHarness({ start: T0 });
  t.teardown(() => h.close());
  await withFlags(h);
  t.is((await h.post(USAGE, { ...batch('ahead'), at: T0 + 3_600_000 })).status, 200);
  t.is((await flagUsage(h, 'default')).json.lastEvaluatedAt, new Date(T0).toISOString());
});

test('what is not a batch is refused naming the field', async (t) => {
  const h = await startAnalyticsHarness({ start: T0 });
  t.teardown(() => h.close());
  const refused = async (body: unknown, message: string) => {
    const res = await h.post(USAGE, body);
    t.is(res.status, 400, res.text);
    t.deepEqual(res.json, invalidBody(message));
  };
  await refused({ at: T0, counts: [] }, 'invalid field id: must be a non-empty string');
  await refused({ id: 'x', at: 'now', counts: [] }, 'invalid field at: must be epoch milliseconds');
  await refused({ id: 'x', at: T0 }, 'invalid field counts: must be an array');
  await refused({ id: 'x', at: T0, counts: [1] }, 'invalid field counts[0]: must be an object');
  await refused({ id: 'x', at: T0, counts: [{ namespaceKey: 'default', flagKey: 'a', value: 'v', reason: 'r', count: 0 }] }, 'invalid field counts[0].count: must be a whole number above 0');
  await refused({ id: 'x', at: T0, counts: [{ namespaceKey: 'default', flagKey: '', value: 'v', reason: 'r', count: 1 }] }, 'invalid field counts[0].flagKey: must be a non-empty string');
  t.is((await h.get(USAGE)).status, 501, 'only POST');
});

test('authenticated as evaluations: none is a 401, a scoped token only for counts of its namespace', async (t) => {
  const h = await startAnalyticsHarness({ auth: true, start: T0 + 1000 });
  t.teardown(() => h.close());
  await withFlags(h);
  const admin = bearer((await issueToken(h.store.authentications, { name: 'admin', description: '' })).clientToken);
  const team = bearer((await issueToken(h.store.authentications, { name: 'team', description: '', namespaceKey: 'team' })).clientToken);
  const none = await h.post(USAGE, batch('a'));
  t.is(none.status, 401);
  t.deepEqual(none.json, UNAUTHENTICATED);
  t.is((await h.post(USAGE, batch('b', 'team'), team)).status, 200);
  const rival = await h.post(USAGE, batch('c', 'default'), team);
  t.is(rival.status, 401);
  t.deepEqual(rival.json, UNAUTHENTICATED);
  const mixed = { ...batch('d', 'team'), counts: [...batch('d', 'team').counts, ...batch('d', 'default').counts] };
  t.is((await h.post(USAGE, mixed, team)).status, 401, 'every count must be of its namespace');
  t.is((await h.post(USAGE, batch('e', 'default'), admin)).status, 200);
  t.is((await flagUsage(h, 'team', admin)).json.evaluations, 4);
  t.is((await flagUsage(h, 'default', admin)).json.evaluations, 4);
});

test('exclude.evaluation opens it as it opens evaluations, the management API staying guarded', async (t) => {
  const h = await startAnalyticsHarness({ auth: true, excludeEvaluation: true, start: T0 + 1000 });
  t.teardown(() => h.close());
  await withFlags(h);
  t.is((await h.post(USAGE, batch('open'))).status, 200);
  t.is((await flagUsage(h, 'default')).status, 401);
});
