/**
 * Change requests in the store: the state machine, approvals bound to the digest of the changes,
 * the author never approving their own, and the apply as one transaction with its changes.
 */
import test from 'ava';
import { Code, type ProposedChange } from '@ensign/core';
import { digestOf } from '@ensign/store';
import { TEST_DIALECTS } from '@ensign/testkit';
import { createFlag } from './helpers/fixtures.js';
import { changesOf, rejects, useStore } from './helpers/store-harness.js';

const ALICE = { authenticationId: 'alice-id', method: 'METHOD_TOKEN', name: 'alice' };
const BOB = { authenticationId: 'bob-id', method: 'METHOD_TOKEN', name: 'bob' };
const CAROL = { authenticationId: 'carol-id', method: 'METHOD_OIDC', name: 'carol' };

const flagCall = (ns: string, key: string): ProposedChange => ({ method: 'POST', path: `/api/v1/namespaces/${ns}/flags`, body: { key, name: key } });

for (const dialect of TEST_DIALECTS) {
  const h = useStore(dialect);

  test(`${dialect}: draft → in review → approved by the required callers; the digest is of the changes, keys in any order`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const changes = [{ method: 'PUT' as const, path: `/api/v1/namespaces/${ns}/flags/f`, body: { name: 'F', enabled: true } }];
    const made = await h().as(ALICE, () => store.changeRequests.create(ns, { title: 'Turn f on', description: '', changes }));
    t.like(made, { state: 'draft', title: 'Turn f on', author: ALICE, approvals: [], digest: digestOf(changes) });
    t.is(digestOf([{ body: { enabled: true, name: 'F' }, path: changes[0]!.path, method: 'PUT' }]), made.digest, 'key order does not matter');
    await rejects(t, h().as(BOB, () => store.changeRequests.approve(ns, made.id, 2)), Code.FailedPrecondition, `change request "${made.id}" is draft`);
    await store.changeRequests.submit(ns, made.id);
    await rejects(t, h().as(ALICE, () => store.changeRequests.approve(ns, made.id, 2)), Code.PermissionDenied, `the author of change request "${made.id}" cannot approve it`);
    const one = await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 2, made.digest));
    t.is(one.state, 'in_review');
    const again = await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 2));
    t.is(again.approvals.length, 1, 'one approval per caller and digest');
    const two = await h().as(CAROL, () => store.changeRequests.approve(ns, made.id, 2));
    t.is(two.state, 'approved');
    t.deepEqual(two.approvals.map((a) => a.actor?.name), ['bob', 'carol']);
  });

  test(`${dialect}: replacing the changes voids every approval; an approval of the old digest is refused`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const made = await h().as(ALICE, () => store.changeRequests.create(ns, { title: 't', description: '', changes: [flagCall(ns, 'a')] }));
    await store.changeRequests.submit(ns, made.id);
    const approved = await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 1));
    t.is(approved.state, 'approved');
    const replaced = await store.changeRequests.replace(ns, made.id, { title: 't', description: 'now two', changes: [flagCall(ns, 'a'), flagCall(ns, 'b')] });
    t.is(replaced.state, 'in_review');
    t.not(replaced.digest, made.digest);
    t.deepEqual(replaced.approvals, []);
    t.is(replaced.events.filter((e) => e.kind === 'approved').length, 1, 'the old approval is kept, of the old digest');
    await rejects(t, h().as(CAROL, () => store.changeRequests.approve(ns, made.id, 1, made.digest)), Code.FailedPrecondition, `change request "${made.id}" now has digest ${replaced.digest}, not ${made.digest}: its changes were replaced; review them again`);
  });

  test(`${dialect}: rejected and cancelled are final; comments are kept; lists filter by state and author`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const a = await h().as(ALICE, () => store.changeRequests.create(ns, { title: 'a', description: '', changes: [flagCall(ns, 'a')] }));
    const b = await h().as(BOB, () => store.changeRequests.create(ns, { title: 'b', description: '', changes: [flagCall(ns, 'b')] }));
    await store.changeRequests.submit(ns, a.id);
    await h().as(CAROL, () => store.changeRequests.comment(ns, a.id, 'why?'));
    const rejected = await h().as(CAROL, () => store.changeRequests.reject(ns, a.id, 'not now'));
    t.is(rejected.state, 'rejected');
    t.deepEqual(rejected.events.map((e) => [e.kind, e.comment, e.actor?.name]), [['commented', 'why?', 'carol'], ['rejected', 'not now', 'carol']]);
    await rejects(t, store.changeRequests.submit(ns, a.id), Code.FailedPrecondition, `change request "${a.id}" is rejected`);
    await store.changeRequests.cancel(ns, b.id);
    await rejects(t, store.changeRequests.replace(ns, b.id, { title: 'b', description: '', changes: [] }), Code.FailedPrecondition, `change request "${b.id}" is cancelled`);
    t.deepEqual((await store.changeRequests.list(ns, { states: ['rejected'] })).map((r) => r.id), [a.id]);
    t.deepEqual((await store.changeRequests.list(ns, { author: 'bob' })).map((r) => r.id), [b.id]);
    await rejects(t, store.changeRequests.get(ns, 'nope'), Code.NotFound, `change request "${ns}/nope" not found`);
  });

  test(`${dialect}: apply runs every change in one transaction with the claim; twice at once applies once; a failure applies nothing`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const made = await h().as(ALICE, () => store.changeRequests.create(ns, { title: 'two flags', description: '', changes: [flagCall(ns, 'x'), flagCall(ns, 'y')] }));
    await store.changeRequests.submit(ns, made.id);
    await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 1));
    const before = await store.revision(ns);
    const writes = async () => {
      await createFlag(store, ns, 'x');
      await createFlag(store, ns, 'y');
    };
    const results = await Promise.allSettled([store.changeRequests.apply(ns, made.id, writes), store.changeRequests.apply(ns, made.id, writes)]);
    t.is(results.filter((r) => r.status === 'fulfilled').length, 1, 'exactly one applies');
    const applied = await store.changeRequests.get(ns, made.id);
    t.like(applied, { state: 'applied', appliedRevision: before + 1 });
    t.is(await store.revision(ns), before + 1, 'one revision for the whole request');
    t.is((await store.flags.list(ns, { limit: 0, offset: 0 })).totalCount, 2);

    const failing = await h().as(ALICE, () => store.changeRequests.create(ns, { title: 'broken', description: '', changes: [flagCall(ns, 'z'), flagCall(ns, 'x')] }));
    await store.changeRequests.submit(ns, failing.id);
    await h().as(BOB, () => store.changeRequests.approve(ns, failing.id, 1));
    const announced = changesOf(h(), ns).length;
    await t.throwsAsync(
      store.changeRequests.apply(ns, failing.id, async () => {
        await createFlag(store, ns, 'z');
        await createFlag(store, ns, 'x');
      }),
      { message: `flag "${ns}/x" is not unique` },
    );
    await t.throwsAsync(store.flags.get(ns, 'z'), undefined, 'the first change was rolled back with the second');
    t.is((await store.changeRequests.get(ns, failing.id)).state, 'approved', 'still approved');
    t.is(changesOf(h(), ns).length, announced);
  });

  test(`${dialect}: a scheduled request is due at its time; suspending it keeps the reason and returns it to approved`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const made = await store.changeRequests.create(ns, { title: 's', description: '', changes: [flagCall(ns, 's')] });
    await store.changeRequests.submit(ns, made.id);
    await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 1));
    const at = '2030-01-01T00:00:00.000Z';
    t.like(await store.changeRequests.schedule(ns, made.id, at), { state: 'scheduled', applyAt: at });
    t.false((await store.changeRequests.due('2029-12-31T23:59:59.999Z')).some((r) => r.id === made.id));
    t.true((await store.changeRequests.due(at)).some((r) => r.id === made.id));
    const suspended = await store.changeRequests.suspend(ns, made.id, 'flag "s" changed since the request was written');
    t.like(suspended, { state: 'approved', suspendedReason: 'flag "s" changed since the request was written' });
    t.false('applyAt' in suspended);
  });

  test(`${dialect}: an apply finding what the changes touch changed since they were written is a conflict naming it; each applied record names the request`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    await createFlag(store, ns, 'f');
    const update = (name: string) => async (): Promise<void> => {
      await store.flags.update({ namespaceKey: ns, key: 'f', name, description: '', enabled: true, defaultVariantId: '', metadata: undefined });
    };
    // What the service keeps as the request's base: the flags its changes would touch, as they are now.
    const { records } = await store.trial(ns, async () => {
      await update('F2')();
    });
    const base = await store.changeRequests.baseFor(ns, records);
    const made = await h().as(ALICE, () => store.changeRequests.create(ns, { title: 'rename f', description: '', changes: [{ method: 'PUT', path: `/api/v1/namespaces/${ns}/flags/f`, body: { name: 'F2' } }], base }));
    await store.changeRequests.submit(ns, made.id);
    await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 1));
    await h().as(CAROL, update('changed meanwhile'));
    const revision = await store.revision(ns);
    await rejects(
      t,
      store.changeRequests.apply(ns, made.id, update('F2')),
      Code.FailedPrecondition,
      `change request "${made.id}" conflicts with changes made since it was written, to flag "f"; replace its changes to re-base it`,
    );
    t.is(await store.revision(ns), revision, 'nothing applied');
    t.is((await store.changeRequests.get(ns, made.id)).state, 'approved');

    const current = await store.trial(ns, async () => {
      await update('F3')();
    });
    const rebased = await store.changeRequests.baseFor(ns, current.records);
    await h().as(ALICE, () => store.changeRequests.replace(ns, made.id, { title: 'rename f', description: '', changes: [{ method: 'PUT', path: `/api/v1/namespaces/${ns}/flags/f`, body: { name: 'F3' } }], base: rebased }));
    await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 1));
    const applied = await h().as(CAROL, () => store.changeRequests.apply(ns, made.id, update('F3')));
    t.is(applied.state, 'applied');
    const [entry] = (await store.audit.list({ namespaceKey: ns, resources: ['flag'], actions: ['updated'], limit: 1 })).events;
    t.like(entry, { key: 'f', actor: CAROL, changeRequest: { id: made.id, title: 'rename f', author: ALICE, approvers: [BOB] } });
    t.deepEqual(changesOf(h(), ns).at(-1)?.record.changeRequest?.approvers, [BOB], 'the audit sinks hear it too');
  });

  test(`${dialect}: the next scheduled apply time, and at most the asked number of due requests`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const ids: string[] = [];
    for (const [i, at] of ['2031-01-02T00:00:00.000Z', '2031-01-01T00:00:00.000Z'].entries()) {
      const made = await h().as(ALICE, () => store.changeRequests.create(ns, { title: `s${i}`, description: '', changes: [flagCall(ns, `s${i}`)] }));
      await store.changeRequests.submit(ns, made.id);
      await h().as(BOB, () => store.changeRequests.approve(ns, made.id, 1));
      await store.changeRequests.schedule(ns, made.id, at);
      ids.push(made.id);
    }
    const next = await store.changeRequests.nextApplyAt();
    t.true(next !== undefined && next <= '2031-01-01T00:00:00.000Z');
    const due = (await store.changeRequests.due('2031-01-03T00:00:00.000Z', 1000)).filter((r) => ids.includes(r.id));
    t.deepEqual(due.map((r) => r.id), [ids[1], ids[0]], 'oldest first');
    t.is((await store.changeRequests.due('2031-01-03T00:00:00.000Z', 1)).length, 1);
  });

  test(`${dialect}: a person signed in again is still the author; two tokens of one name are two callers`, async (t) => {
    const { store } = h();
    const ns = await h().namespace();
    const firstLogin = { authenticationId: 'oidc-session-1', method: 'METHOD_OIDC', name: 'ada@example.com' };
    const secondLogin = { authenticationId: 'oidc-session-2', method: 'METHOD_OIDC', name: 'ada@example.com' };
    const made = await h().as(firstLogin, () => store.changeRequests.create(ns, { title: 'mine', description: '', changes: [flagCall(ns, 'mine')] }));
    await store.changeRequests.submit(ns, made.id);
    await rejects(t, h().as(secondLogin, () => store.changeRequests.approve(ns, made.id, 1)), Code.PermissionDenied, `the author of change request "${made.id}" cannot approve it`);
    const ci = { authenticationId: 'token-a', method: 'METHOD_TOKEN', name: 'ci' };
    const otherCi = { authenticationId: 'token-b', method: 'METHOD_TOKEN', name: 'ci' };
    const byToken = await h().as(ci, () => store.changeRequests.create(ns, { title: 'ci', description: '', changes: [flagCall(ns, 'by-ci')] }));
    await store.changeRequests.submit(ns, byToken.id);
    t.is((await h().as(otherCi, () => store.changeRequests.approve(ns, byToken.id, 1))).state, 'approved');
  });
}
