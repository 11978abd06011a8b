import test from 'ava';
import { SnapshotPublisher } from '../src/index.js';
import { type Harness, startHarness } from './harness.js';
import { capturingLogger, GatedReader, RecordingSink, tick } from './snapshot-fakes.js';

let h: Harness;
let reader: GatedReader;
const sink = new RecordingSink();

test.before(async () => {
  h = await startHarness({
    snapshots: (store) => {
      reader = new GatedReader(store);
      return new SnapshotPublisher({ store: reader, sink, hash: 'murmur3', logger: capturingLogger().logger });
    },
  });
});
test.after.always(async () => {
  reader?.release();
  await h?.close();
});

// Tests share one gated publisher, so they take turns.
test.serial('a write answers only after the sink holds the snapshot that contains it', async (t) => {
  let answered = false;
  const seenBeforeAnswer: string[][] = [];
  sink.onPut = (snapshot) => {
    if (!answered) seenBeforeAnswer.push(snapshot.document.flags.map((f) => f.key));
  };
  reader.delayMs = 100;
  const res = await h.call('POST', '/api/v1/flags', { json: { key: 'fresh', name: 'Fresh' } });
  answered = true;
  t.is(res.status, 200);
  t.deepEqual(seenBeforeAnswer.at(-1), ['fresh']);
  t.is(sink.held.get('default')?.revision, await h.store.revision('default'));

  const upd = await h.call('PUT', '/api/v1/flags/fresh', { json: { name: 'Renamed', enabled: true } });
  t.is(upd.status, 200);
  t.like(sink.held.get('default')?.document.flags[0], { key: 'fresh', name: 'Renamed', enabled: true });
  const del = await h.call('DELETE', '/api/v1/flags/fresh');
  t.is(del.status, 200);
  t.deepEqual(sink.flagKeysOf('default'), []);
  sink.onPut = () => {};
  reader.delayMs = 0;
});

test.serial('while a rebuild is held up, writes wait for it but reads, failed writes and unknown routes do not', async (t) => {
  reader.close();
  let answered = false;
  const write = h.call('POST', '/api/v1/namespaces', { json: { key: 'held', name: 'Held' } }).then((res) => {
    answered = true;
    return res;
  });
  // The write has committed once the namespace can be read back.
  for (let i = 0; i < 200 && (await h.call('GET', '/api/v1/namespaces/held')).status !== 200; i++) await tick();
  t.is((await h.call('GET', '/api/v1/namespaces/held')).status, 200);
  t.is((await h.call('GET', '/api/v1/namespaces/held/flags')).status, 200);
  t.is((await h.call('POST', '/api/v1/namespaces', { json: { key: 'held', name: 'Again' } })).status, 400);
  t.is((await h.call('POST', '/api/v1/flags', { json: { name: 'no key' } })).status, 400);
  t.is((await h.call('POST', '/api/v1/nowhere', { json: {} })).status, 404);
  t.false(answered);
  t.false(sink.held.has('held'));

  reader.release();
  const res = await write;
  t.is(res.status, 200);
  t.is(sink.held.get('held')?.revision, 1);
});
