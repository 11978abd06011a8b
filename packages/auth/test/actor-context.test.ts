/** The actor of the request being served: held through its awaits, separate for overlapping requests, gone after. */
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { actorOf, currentActor, runAs } from '../src/actor-context.js';
import { SESSION_PARENT } from '../src/browser-session.js';
import type { Caller } from '../src/caller.js';

const alice = { authenticationId: 'a', method: 'METHOD_TOKEN' as const, name: 'alice' };
const bob = { authenticationId: 'b', method: 'METHOD_TOKEN' as const, name: 'bob' };

test('overlapping requests each keep their own actor through their awaits, and none is left after', async (t) => {
  let releaseAlice!: () => void;
  const aliceGate = new Promise<void>((resolve) => (releaseAlice = resolve));
  const seen: string[] = [];
  const first = runAs(alice, async () => {
    await aliceGate;
    await sleep(5);
    seen.push(`after wait: ${currentActor()?.name}`);
  });
  const second = runAs(bob, async () => {
    seen.push(`bob: ${currentActor()?.name}`);
    await sleep(1);
    seen.push(`bob later: ${currentActor()?.name}`);
  });
  await second;
  // Bob's request is done while Alice's still waits: hers must keep her actor.
  releaseAlice();
  await first;
  t.deepEqual(seen, ['bob: bob', 'bob later: bob', 'after wait: alice']);
  t.is(currentActor(), undefined);
});

test('a synchronous run and a failing one leave no actor behind, and a later run has its own', async (t) => {
  t.is(runAs(alice, () => currentActor()?.name), 'alice');
  t.throws(() => runAs(alice, () => { throw new Error('boom'); }), { message: 'boom' });
  await t.throwsAsync(runAs(bob, async () => { throw new Error('late boom'); }), { message: 'late boom' });
  t.is(currentActor(), undefined);
  t.is(await runAs(bob, async () => { await sleep(1); return currentActor()?.name; }), 'bob');
});

test('a browser session acts as the credential it was opened with; any other caller as its own authentication', (t) => {
  const session = { method: 'METHOD_TOKEN' as const, authentication: { id: 'session-1', method: 'METHOD_TOKEN' as const, metadata: { 'io.flipt.auth.token.name': 'ada', [SESSION_PARENT]: 'token-1' }, createdAt: '', updatedAt: '' }, via: 'cookie' as const };
  t.deepEqual(actorOf(session as unknown as Caller), { authenticationId: 'token-1', method: 'METHOD_TOKEN', name: 'ada' });
  const token = { ...session, authentication: { ...session.authentication, id: 'token-1', metadata: { 'io.flipt.auth.token.name': 'ada' } }, via: 'bearer' as const };
  t.deepEqual(actorOf(token as unknown as Caller), { authenticationId: 'token-1', method: 'METHOD_TOKEN', name: 'ada' });
});
