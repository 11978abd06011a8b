/** A write answers once its namespace's evaluation snapshot holds it: the next evaluation sees it. */
import test from 'ava';
import { type Harness, startHarness } from './harness.js';

let h: Harness;

test.before(async () => {
  h = await startHarness({ snapshots: true });
});
test.after.always(async () => {
  await h?.close();
});

test.serial('each write is in the held version by the time it answers', async (t) => {
  const res = await h.call('POST', '/api/v1/flags', { json: { key: 'fresh', name: 'Fresh' } });
  t.is(res.status, 200);
  t.is(h.source.peek('default')?.revision, await h.store.revision('default'));
  t.deepEqual(h.source.peek('default')?.snapshot.document.flags.map((f) => f.key), ['fresh']);

  const upd = await h.call('PUT', '/api/v1/flags/fresh', { json: { name: 'Renamed', enabled: true } });
  t.is(upd.status, 200);
  t.like(h.source.peek('default')?.snapshot.document.flags[0], { key: 'fresh', name: 'Renamed', enabled: true });
  t.true(h.source.peek('default')?.compiled.flags.get('fresh')?.enabled);

  const del = await h.call('DELETE', '/api/v1/flags/fresh');
  t.is(del.status, 200);
  t.deepEqual(h.source.peek('default')?.snapshot.document.flags, []);
  t.is(h.source.peek('default')?.revision, await h.store.revision('default'));
});

test.serial('a namespace is held from its creation and dropped at its deletion', async (t) => {
  t.is((await h.call('POST', '/api/v1/namespaces', { json: { key: 'held', name: 'Held' } })).status, 200);
  t.is(h.source.peek('held')?.revision, await h.store.revision('held'));
  t.is((await h.call('POST', '/api/v1/namespaces/held/flags', { json: { key: 'f', name: 'F' } })).status, 200);
  t.is((await h.call('DELETE', '/api/v1/namespaces/held?force=true')).status, 200);
  t.is(h.source.peek('held'), undefined);
});

test.serial('a failed write leaves the held version as it was', async (t) => {
  const before = h.source.peek('default');
  t.is((await h.call('POST', '/api/v1/flags', { json: { name: 'no key' } })).status, 400);
  t.is(h.source.peek('default'), before);
});
