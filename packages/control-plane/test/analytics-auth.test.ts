/** Who may read evaluation counts: authenticated as on the management API, a namespace-scoped token only its own namespace. */
import test from 'ava';
import { issueToken } from '@ensign/auth';
import { type AnalyticsHarness, record, startAnalyticsHarness } from './analytics-harness.js';
import { bearer, UNAUTHENTICATED } from './auth-harness.js';

const T0 = Date.UTC(2026, 10, 26, 4, 0, 0);
const RANGE = `from=${new Date(T0).toISOString()}&to=${new Date(T0 + 60_000).toISOString()}`;

let h: AnalyticsHarness;
let admin: Record<string, string>;
let team: Record<string, string>;
test.before(async () => {
  h = await startAnalyticsHarness({ auth: true, start: T0 });
  await h.store.namespaces.create({ key: 'team', name: 'Team', description: '' });
  for (const ns of ['default', 'team']) {
    await h.store.flags.create({ namespaceKey: ns, key: 'color', name: 'Color', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: undefined });
    await record(h.store, ns, T0, [['color', 'red', ns === 'team' ? 2 : 1]]);
  }
  admin = bearer((await issueToken(h.store.authentications, { name: 'admin', description: '' })).clientToken);
  team = bearer((await issueToken(h.store.authentications, { name: 'team', description: '', namespaceKey: 'team' })).clientToken);
});
test.after.always(() => h?.close());

const PATHS = (ns: string): string[] => [
  `/internal/v1/analytics/namespaces/${ns}/flags/color?${RANGE}`,
  `/api/v1/namespaces/${ns}/usage`,
  `/api/v1/namespaces/${ns}/flags/color/usage?${RANGE}`,
];

test('without a credential every route is a 401', async (t) => {
  for (const path of [...PATHS('default'), ...PATHS('team')]) {
    const res = await h.get(path);
    t.is(res.status, 401, path);
    t.deepEqual(res.json, UNAUTHENTICATED, path);
  }
});

test('an unscoped token reads every namespace', async (t) => {
  for (const path of [...PATHS('default'), ...PATHS('team')]) t.is((await h.get(path, admin)).status, 200, path);
  t.deepEqual((await h.get(PATHS('team')[0] as string, admin)).json.values, [2, 0]);
});

test('a namespace-scoped token reads its namespace only', async (t) => {
  for (const path of PATHS('team')) t.is((await h.get(path, team)).status, 200, path);
  t.deepEqual((await h.get(PATHS('team')[2] as string, team)).json.evaluations, 2);
  for (const path of PATHS('default')) {
    const res = await h.get(path, team);
    t.is(res.status, 401, path);
    t.deepEqual(res.json, UNAUTHENTICATED, path);
  }
});
