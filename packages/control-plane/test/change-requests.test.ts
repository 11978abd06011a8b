/**
 * Change requests over HTTP: proposed calls checked when added (naming the change's index and
 * field), the diff they would make, approval of a digest, and the apply as one revision.
 */
import test from 'ava';
import { ScheduledApply } from '../src/index.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
const base = '/api/v1/namespaces/prod/change-requests';

test.before(async () => {
  h = await startHarness({ changeRequests: true, snapshots: true });
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'prod', name: 'Production' } });
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'staging', name: 'Staging' } });
  await h.call('POST', '/api/v1/namespaces/prod/flags', { json: { key: 'checkout', name: 'Checkout', type: 'BOOLEAN_FLAG_TYPE', enabled: false } });
});
test.after.always(() => h?.close());

const turnOn = { method: 'PUT', path: '/api/v1/namespaces/prod/flags/checkout', body: { name: 'Checkout', enabled: true } };
const newFlag = (key: string) => ({ method: 'POST', path: '/api/v1/namespaces/prod/flags', body: { key, name: key, type: 'BOOLEAN_FLAG_TYPE' } });

test('a request answers its state, digest and the diff it would make, and changes nothing until applied', async (t) => {
  const made = await h.call('POST', base, { json: { title: 'Launch checkout', description: 'with a banner', changes: [turnOn, newFlag('banner')] } });
  t.is(made.status, 200, made.text);
  t.like(made.json, { namespaceKey: 'prod', title: 'Launch checkout', state: 'draft' });
  t.regex(made.json.digest, /^[0-9a-f]{64}$/);
  t.deepEqual(made.json.diff.map((r: { action: string; key: string }) => `${r.action} ${r.key}`), ['updated checkout', 'created banner']);
  t.like(made.json.diff[0], { before: { enabled: false }, after: { enabled: true } });
  t.false((await h.call('GET', '/api/v1/namespaces/prod/flags/checkout')).json.enabled, 'nothing written');
  t.is((await h.call('GET', '/api/v1/namespaces/prod/flags/banner')).status, 404);
  const read = await h.call('GET', `${base}/${made.json.id}`);
  t.is(read.json.diff.length, 2);
  const drafts = (await h.call('GET', `${base}?state=draft`)).json.changeRequests as Array<{ id: string; state: string }>;
  t.true(drafts.some((r) => r.id === made.json.id));
  t.true(drafts.every((r) => r.state === 'draft'));
  t.is((await h.call('GET', `${base}?state=drafted`)).json.message, 'invalid field state: "drafted" is not one of draft, in_review, approved, scheduled, applied, rejected, cancelled');
});

test('a change that would fail, names another namespace or is not a flag write is refused when added, naming its index', async (t) => {
  const missing = await h.call('POST', base, { json: { title: 't', changes: [turnOn, { method: 'PUT', path: '/api/v1/namespaces/prod/flags/ghost', body: { name: 'G' } }] } });
  t.is(missing.status, 404);
  t.is(missing.json.message, 'changes[1] (PUT /api/v1/namespaces/prod/flags/ghost): flag "prod/ghost" not found');
  const invalid = await h.call('POST', base, { json: { title: 't', changes: [newFlag('bad key!')] } });
  t.is(invalid.status, 400);
  t.is(invalid.json.message, 'changes[0] (POST /api/v1/namespaces/prod/flags): invalid field key: contains invalid characters');
  const other = await h.call('POST', base, { json: { title: 't', changes: [{ method: 'POST', path: '/api/v1/namespaces/staging/flags', body: { key: 'x', name: 'x' } }] } });
  t.is(other.json.message, 'invalid field changes[0].path: names namespace "staging"; a change request of "prod" changes that namespace only');
  const namespace = await h.call('POST', base, { json: { title: 't', changes: [{ method: 'DELETE', path: '/api/v1/namespaces/prod' }] } });
  t.regex(namespace.json.message, /^invalid field changes\[0\]\.path: DELETE \/api\/v1\/namespaces\/prod \(DeleteNamespace\) cannot be proposed/);
  const nowhere = await h.call('POST', base, { json: { title: 't', changes: [{ method: 'PUT', path: '/api/v1/nowhere' }] } });
  t.is(nowhere.json.message, 'invalid field changes[0].path: no PUT route of the API is "/api/v1/nowhere"');
  t.is((await h.call('POST', base, { json: { title: 't', changes: [] } })).json.message, 'invalid field changes: must propose at least one change');
  t.is((await h.call('POST', base, { json: { changes: [turnOn] } })).json.message, 'invalid field title: must not be empty');
  t.is((await h.call('POST', base, { json: { title: 't', changes: [{ method: 'PATCH', path: '/x' }] } })).json.message, 'invalid field changes[0].method: must be POST, PUT or DELETE');
});

test('submitted, approved (of its digest), applied as one revision; applying again is a conflict', async (t) => {
  const made = (await h.call('POST', base, { json: { title: 'Two flags', changes: [newFlag('one'), newFlag('two')] } })).json;
  t.is((await h.call('POST', `${base}/${made.id}/apply`, { json: {} })).status, 409, 'not approved yet');
  t.is((await h.call('POST', `${base}/${made.id}/submit`, { json: {} })).json.state, 'in_review');
  const stale = await h.call('POST', `${base}/${made.id}/approvals`, { json: { digest: '0'.repeat(64) } });
  t.is(stale.status, 409);
  const approved = await h.call('POST', `${base}/${made.id}/approvals`, { json: { digest: made.digest } });
  t.is(approved.json.state, 'approved');
  const revision = h.source.peek('prod')!.revision;
  const applied = await h.call('POST', `${base}/${made.id}/apply`, { json: {} });
  t.is(applied.status, 200, applied.text);
  t.like(applied.json, { state: 'applied', appliedRevision: revision + 1 });
  t.is(h.source.peek('prod')!.revision, revision + 1, 'the evaluators hold both flags at one revision');
  t.deepEqual(h.source.peek('prod')!.snapshot.document.flags.map((f) => f.key).filter((k) => k === 'one' || k === 'two'), ['one', 'two']);
  const history = (await h.call('GET', `/api/v1/namespaces/prod/audit/events?type=flag&action=created`)).json.events.filter((e: { revision: number }) => e.revision === revision + 1);
  t.is(history.length, 2, 'one change record per change');
  t.is((await h.call('POST', `${base}/${made.id}/apply`, { json: {} })).status, 409);
});

test('rejected with a comment, cancelled, and an unknown request', async (t) => {
  const made = (await h.call('POST', base, { json: { title: 'r', changes: [newFlag('rejected-flag')] } })).json;
  await h.call('POST', `${base}/${made.id}/submit`, { json: {} });
  await h.call('POST', `${base}/${made.id}/comments`, { json: { comment: 'why?' } });
  const rejected = await h.call('POST', `${base}/${made.id}/rejections`, { json: { comment: 'not this week' } });
  t.like(rejected.json, { state: 'rejected' });
  t.deepEqual(rejected.json.events.map((e: { kind: string; comment: string }) => [e.kind, e.comment]), [['commented', 'why?'], ['rejected', 'not this week']]);
  t.is((await h.call('GET', `${base}/nope`)).status, 404);
  const scheduled = (await h.call('POST', base, { json: { title: 's', changes: [newFlag('later')] } })).json;
  await h.call('POST', `${base}/${scheduled.id}/submit`, { json: {} });
  await h.call('POST', `${base}/${scheduled.id}/approvals`, { json: {} });
  const at = await h.call('POST', `${base}/${scheduled.id}/apply`, { json: { applyAt: '2999-01-01T00:00:00Z' } });
  t.like(at.json, { state: 'scheduled', applyAt: '2999-01-01T00:00:00.000Z' });
  t.is((await h.call('POST', `${base}/${scheduled.id}/cancel`, { json: {} })).json.state, 'cancelled');
});

test.serial('a protected namespace refuses direct writes and imports; a request needs the policy’s approvals; lowering it to 0 is recorded', async (t) => {
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'locked', name: 'Locked' } });
  const policy = '/api/v1/namespaces/locked/change-policy';
  t.deepEqual((await h.call('GET', policy)).json, { namespaceKey: 'locked', requiredApprovals: 0 });
  t.deepEqual((await h.call('PUT', policy, { json: { requiredApprovals: 11 } })).json.message, 'invalid field requiredApprovals: must be a whole number from 0 (unprotected) to 10');
  t.deepEqual((await h.call('PUT', policy, { json: { requiredApprovals: 2 } })).json, { namespaceKey: 'locked', requiredApprovals: 2 });

  const direct = await h.call('POST', '/api/v1/namespaces/locked/flags', { json: { key: 'direct', name: 'Direct' } });
  t.is(direct.status, 403);
  t.is(direct.json.message, 'namespace "locked" is protected: changes to it are made through a change request (POST /api/v1/namespaces/locked/change-requests)');
  t.is((await h.call('GET', '/api/v1/namespaces/locked/flags/direct')).status, 404, 'nothing written');
  const imported = await h.call('POST', '/api/v1/namespaces/locked/import', { body: 'flags:\n  - key: sneaky\n    name: Sneaky\n', headers: { 'content-type': 'application/yaml' } });
  t.is(imported.status, 403);

  const requests = '/api/v1/namespaces/locked/change-requests';
  const made = (await h.call('POST', requests, { json: { title: 'via review', changes: [{ method: 'POST', path: '/api/v1/namespaces/locked/flags', body: { key: 'reviewed', name: 'Reviewed' } }] } })).json;
  t.is(made.diff.length, 1, 'a request is tried through the protection');
  await h.call('POST', `${requests}/${made.id}/submit`, { json: {} });
  t.is((await h.call('POST', `${requests}/${made.id}/approvals`, { json: {} })).json.state, 'in_review', 'one approval of two');
  t.is((await h.call('POST', `${requests}/${made.id}/apply`, { json: {} })).status, 409);

  const lowered = await h.call('PUT', policy, { json: { requiredApprovals: 0 } });
  t.is(lowered.json.requiredApprovals, 0);
  const recorded = (await h.call('GET', '/api/v1/namespaces/locked/audit/events?type=namespace')).json.events.map((e: { after: { changePolicy?: { requiredApprovals: number } } }) => e.after.changePolicy?.requiredApprovals);
  t.deepEqual(recorded.slice(0, 2), [0, 2], 'raising and lowering the policy are in the history');
  t.is((await h.call('POST', '/api/v1/namespaces/locked/flags', { json: { key: 'direct', name: 'Direct' } })).status, 200, 'unprotected again');
});

test.serial('what a request touches that changed since it was written is shown as a conflict, and refuses the apply', async (t) => {
  await h.call('POST', '/api/v1/namespaces/prod/flags', { json: { key: 'contract', name: 'Contract' } });
  const rename = { method: 'PUT', path: '/api/v1/namespaces/prod/flags/contract', body: { name: 'Contract v2', enabled: true } };
  const made = (await h.call('POST', base, { json: { title: 'Rename', changes: [rename] } })).json;
  await h.call('POST', `${base}/${made.id}/submit`, { json: {} });
  await h.call('POST', `${base}/${made.id}/approvals`, { json: {} });
  t.false('conflict' in (await h.call('GET', `${base}/${made.id}`)).json);
  await h.call('PUT', '/api/v1/namespaces/prod/flags/contract', { json: { name: 'Contract', description: 'edited meanwhile', enabled: true } });
  const read = (await h.call('GET', `${base}/${made.id}`)).json;
  t.is(read.conflict, 'changed since the request was written: flag "contract"; replace its changes to re-base it');
  t.like(read.conflicts, [{ resource: 'flag', key: 'contract', was: { flag: { description: '' } }, now: { flag: { description: 'edited meanwhile' } } }]);
  const applied = await h.call('POST', `${base}/${made.id}/apply`, { json: {} });
  t.is(applied.status, 409);
  t.is(applied.json.message, `change request "${made.id}" conflicts with changes made since it was written, to flag "contract"; replace its changes to re-base it`);
  t.is((await h.call('GET', '/api/v1/namespaces/prod/flags/contract')).json.name, 'Contract', 'nothing applied');
  // Re-based: the same change written again is checked against what is there now.
  const rebased = (await h.call('PUT', `${base}/${made.id}`, { json: { title: 'Rename', changes: [rename] } })).json;
  t.is(rebased.state, 'in_review');
  await h.call('POST', `${base}/${made.id}/approvals`, { json: {} });
  t.is((await h.call('POST', `${base}/${made.id}/apply`, { json: {} })).json.state, 'applied');
});

test.serial('a flag deleted since the request was written is a conflict; a change that no longer applies is named', async (t) => {
  await h.call('POST', '/api/v1/namespaces/prod/flags', { json: { key: 'doomed', name: 'Doomed' } });
  const made = (await h.call('POST', base, { json: { title: 'Edit doomed', changes: [{ method: 'PUT', path: '/api/v1/namespaces/prod/flags/doomed', body: { name: 'Still here' } }] } })).json;
  await h.call('POST', `${base}/${made.id}/submit`, { json: {} });
  await h.call('POST', `${base}/${made.id}/approvals`, { json: {} });
  await h.call('DELETE', '/api/v1/namespaces/prod/flags/doomed');
  t.is((await h.call('GET', `${base}/${made.id}`)).json.conflict, 'changes[0] (PUT /api/v1/namespaces/prod/flags/doomed): flag "prod/doomed" not found');
  const applied = await h.call('POST', `${base}/${made.id}/apply`, { json: {} });
  t.is(applied.status, 409);
  t.is(applied.json.message, `change request "${made.id}" conflicts with changes made since it was written, to flag "doomed"; replace its changes to re-base it`);
  t.like((await h.call('GET', `${base}/${made.id}`)).json.conflicts, [{ resource: 'flag', key: 'doomed', was: { flag: { key: 'doomed' } } }]);
  t.is((await h.call('GET', `${base}/${made.id}`)).json.state, 'approved');
});

test.serial('a preview (dryRun) answers the changes, digest and diff and stores nothing; applyAt must be ahead', async (t) => {
  const listed = (await h.call('GET', base)).json.changeRequests.length;
  const preview = await h.call('POST', `${base}?dryRun=true`, { json: { title: 'Preview', changes: [newFlag('previewed')] } });
  t.is(preview.status, 200, preview.text);
  t.like(preview.json, { namespaceKey: 'prod', title: 'Preview', changes: [newFlag('previewed')] });
  t.regex(preview.json.digest, /^[0-9a-f]{64}$/);
  t.deepEqual(preview.json.diff.map((r: { action: string; key: string }) => `${r.action} ${r.key}`), ['created previewed']);
  t.is((await h.call('GET', base)).json.changeRequests.length, listed, 'nothing stored');
  t.is((await h.call('GET', '/api/v1/namespaces/prod/flags/previewed')).status, 404);
  const made = (await h.call('POST', base, { json: { title: 'past', changes: [newFlag('past')] } })).json;
  await h.call('POST', `${base}/${made.id}/submit`, { json: {} });
  await h.call('POST', `${base}/${made.id}/approvals`, { json: {} });
  const past = await h.call('POST', `${base}/${made.id}/apply`, { json: { applyAt: '2001-01-01T00:00:00Z' } });
  t.is(past.json.message, 'invalid field applyAt: must be in the future (apply without it to apply now)');
  const promoted = await h.call('POST', base, { json: { promoteFrom: 'staging', changes: [newFlag('x')] } });
  t.is(promoted.json.message, 'invalid field changes: cannot be given with promoteFrom: a promotion works its changes out');
});

test.serial('a scheduled request is applied at its time as the scheduler; one that conflicts then is suspended with the reason', async (t) => {
  const schedule = async (title: string, changes: unknown[], applyAt: string) => {
    const made = (await h.call('POST', base, { json: { title, changes } })).json;
    await h.call('POST', `${base}/${made.id}/submit`, { json: {} });
    await h.call('POST', `${base}/${made.id}/approvals`, { json: {} });
    t.is((await h.call('POST', `${base}/${made.id}/apply`, { json: { applyAt } })).json.state, 'scheduled');
    return made.id as string;
  };
  await h.call('POST', '/api/v1/namespaces/prod/flags', { json: { key: 'contested', name: 'Contested' } });
  const onTime = await schedule('Night launch', [newFlag('nightly')], '2998-01-01T00:00:00Z');
  const contested = await schedule('Contested', [{ method: 'PUT', path: '/api/v1/namespaces/prod/flags/contested', body: { name: 'Mine' } }], '2998-01-01T00:00:01Z');
  await h.call('PUT', '/api/v1/namespaces/prod/flags/contested', { json: { name: 'Theirs' } });
  const runner = new ScheduledApply({ requests: h.store.changeRequests, service: h.changeRequests!, logger: h.logger, pollMs: 60_000, now: () => Date.parse('2998-01-02T00:00:00Z') });
  await runner.start();
  await runner.stop();
  const applied = (await h.call('GET', `${base}/${onTime}`)).json;
  t.is(applied.state, 'applied');
  const [record] = (await h.call('GET', '/api/v1/namespaces/prod/audit/events?type=flag&action=created')).json.events;
  t.like(record, { key: 'nightly', actor: { method: 'METHOD_SCHEDULE', authenticationId: onTime }, changeRequest: { id: onTime, title: 'Night launch' } });
  const suspended = (await h.call('GET', `${base}/${contested}`)).json;
  t.is(suspended.state, 'approved');
  t.regex(suspended.suspendedReason, /^not applied at 2998-01-01T00:00:01\.000Z: change request ".+" conflicts with changes made since it was written, to flag "contested"/);
  t.is((await h.call('GET', '/api/v1/namespaces/prod/flags/contested')).json.name, 'Theirs');
  t.is(runner.counts.applied, 1);
});

test.serial('a request that makes a variant and then edits its flag applies: what it makes itself is no conflict', async (t) => {
  await h.call('POST', '/api/v1/namespaces/prod/flags', { json: { key: 'layout', name: 'Layout' } });
  const changes = [
    { method: 'POST', path: '/api/v1/namespaces/prod/flags/layout/variants', body: { key: 'wide', name: 'Wide' } },
    { method: 'PUT', path: '/api/v1/namespaces/prod/flags/layout', body: { name: 'Layout', defaultVariantKey: 'wide' } },
  ];
  const made = (await h.call('POST', base, { json: { title: 'Wide by default', changes } })).json;
  await h.call('POST', `${base}/${made.id}/submit`, { json: {} });
  await h.call('POST', `${base}/${made.id}/approvals`, { json: {} });
  t.false('conflict' in (await h.call('GET', `${base}/${made.id}`)).json);
  const applied = await h.call('POST', `${base}/${made.id}/apply`, { json: {} });
  t.is(applied.json.state, 'applied', applied.text);
  t.is((await h.call('GET', '/api/v1/namespaces/prod/flags/layout')).json.defaultVariant.key, 'wide');
});

test.serial('a change keeps its query: a distribution is deleted through a request', async (t) => {
  await h.call('POST', '/api/v1/namespaces/prod/flags', { json: { key: 'split', name: 'Split' } });
  const variant = (await h.call('POST', '/api/v1/namespaces/prod/flags/split/variants', { json: { key: 'a', name: 'A' } })).json;
  await h.call('POST', '/api/v1/namespaces/prod/segments', { json: { key: 'all-users', name: 'All', matchType: 'ALL_MATCH_TYPE' } });
  const rule = (await h.call('POST', '/api/v1/namespaces/prod/flags/split/rules', { json: { segmentKey: 'all-users', rank: 1 } })).json;
  const distribution = (await h.call('POST', `/api/v1/namespaces/prod/flags/split/rules/${rule.id}/distributions`, { json: { variantId: variant.id, rollout: 100 } })).json;
  const path = `/api/v1/namespaces/prod/flags/split/rules/${rule.id}/distributions/${distribution.id}?variantId=${variant.id}`;
  const made = await h.call('POST', base, { json: { title: 'No split', changes: [{ method: 'DELETE', path }] } });
  t.is(made.status, 200, made.text);
  t.deepEqual(made.json.diff.map((r: { action: string; resource: string }) => `${r.action} ${r.resource}`), ['deleted distribution']);
  const missing = await h.call('POST', base, { json: { title: 'No split', changes: [{ method: 'DELETE', path: path.split('?')[0] }] } });
  t.regex(missing.json.message, /variantId/, 'without the query the route refuses it, naming the field');
});
