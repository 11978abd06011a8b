import test from 'ava';
import { SnapshotPublisher } from '../src/index.js';
import { startHarness } from './harness.js';
import { capturingLogger, GatedReader, RecordingSink } from './snapshot-fakes.js';

test('a committed write whose snapshot hangs answers after the settle timeout, with a warning', async (t) => {
  let reader: GatedReader | undefined;
  const sink = new RecordingSink();
  const h = await startHarness({
    settleTimeoutMs: 300,
    snapshots: (store) => {
      reader = new GatedReader(store);
      return new SnapshotPublisher({ store: reader, sink, hash: 'murmur3', logger: capturingLogger().logger });
    },
  });
  t.teardown(async () => {
    reader?.release();
    await h.close();
  });
  reader!.close();

  const res = await h.call('POST', '/api/v1/flags', { json: { key: 'stuck', name: 'Stuck' } });
  t.is(res.status, 200);
  t.false(sink.held.has('default'), 'the snapshot was still held up when the write answered');
  t.true(h.logs.some((line) => line.level === 40 && line.msg.startsWith('snapshot not published in time')));
  t.is((await h.call('GET', '/api/v1/flags/stuck')).status, 200);

  reader!.release();
  for (let i = 0; i < 100 && !sink.held.has('default'); i++) await new Promise((r) => setTimeout(r, 10));
  t.deepEqual(sink.flagKeysOf('default'), ['stuck']);
});
