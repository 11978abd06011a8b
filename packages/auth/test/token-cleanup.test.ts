import { eventually } from '@ensign/testkit';
import test from 'ava';
import { issueToken, TokenCleanup } from '../src/index.js';
import { MemoryAuthenticationStore } from './helpers/memory-authentication-store.js';

const quiet = { info: () => undefined, warn: () => undefined };
const HOUR = 3_600_000;

test('a run deletes authentications expired longer ago than the grace period, and only those', async (t) => {
  const now = Date.parse('2026-05-01T12:00:00Z');
  const store = new MemoryAuthenticationStore();
  const longExpired = await issueToken(store, { name: 'old', description: '', expiresAt: new Date(now - 2 * HOUR) });
  const recentlyExpired = await issueToken(store, { name: 'recent', description: '', expiresAt: new Date(now - 10 * 60_000) });
  const live = await issueToken(store, { name: 'live', description: '', expiresAt: new Date(now + HOUR) });
  const forever = await issueToken(store, { name: 'forever', description: '' });
  const deleted: number[] = [];
  const cleanup = new TokenCleanup({ store, intervalMs: HOUR, gracePeriodMs: 30 * 60_000, logger: quiet, now: () => now, onDeleted: (n) => deleted.push(n) });

  t.is(await cleanup.runOnce(), 1);
  t.is(await store.get(longExpired.authentication.id), undefined);
  t.truthy(await store.get(recentlyExpired.authentication.id), 'still within its grace period');
  t.truthy(await store.get(live.authentication.id));
  t.truthy(await store.get(forever.authentication.id));
  t.deepEqual(deleted, [1]);
  t.is(await cleanup.runOnce(), 0);
  t.deepEqual(deleted, [1], 'a run that deleted nothing reports nothing');
});

test('started, the job runs every interval until stopped, and a failing run does not stop it', async (t) => {
  let calls = 0;
  const store = {
    deleteExpired: async () => {
      calls++;
      if (calls === 1) throw new Error('database unavailable');
      return 0;
    },
  };
  const warnings: string[] = [];
  const cleanup = new TokenCleanup({ store, intervalMs: 5, gracePeriodMs: 0, logger: { info: () => undefined, warn: (_o, msg) => void warnings.push(msg) } });
  cleanup.start();
  t.true(await eventually(() => calls >= 3), 'ran three times');
  await cleanup.stop();
  t.true(calls >= 3);
  t.is(warnings.length, 1);
  const after = calls;
  // A second job on the same interval, started after the stop: once it has run three times, the stopped one would have too.
  let controlCalls = 0;
  const control = new TokenCleanup({ store: { deleteExpired: async () => (controlCalls++, 0) }, intervalMs: 5, gracePeriodMs: 0, logger: { info: () => undefined, warn: () => undefined } });
  control.start();
  t.true(await eventually(() => controlCalls >= 3), 'the control job ran');
  await control.stop();
  t.is(calls, after, 'no run after stop');
});
