/**
 * `?format=ensign`: Ensign's own clients are served the document as held (schedules, windows, ramps
 * and prerequisites unfolded) with its revision and the bucketing hash, on the client-side snapshot
 * and its stream; its tag does not move with time, since those clients fold it themselves. Any
 * other format is refused naming the field; Flipt's clients are served as before.
 */
import test from 'ava';
import { flag, hold, segment } from '@ensign/testkit/snapshot-fixtures';
import { openStream } from '@ensign/testkit/stream-client';
import type { SnapshotDocument } from '@ensign/engine';
import { InProcessSnapshotSource } from '../src/in-process-snapshot-source.js';
import { assertError, startServer } from './helpers/server.js';

const T = Date.parse('2026-03-01T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const SNAPSHOT = '/internal/v1/evaluation/snapshot/namespace/default';
const STREAM = '/client/v2/environments/default/namespaces/default/stream';

function timedDocument(): SnapshotDocument {
  return {
    namespace: { key: 'default' },
    flags: [
      flag('launch', { type: 'BOOLEAN_FLAG_TYPE', enabled: false, schedules: [{ at: iso(T), enabled: true }] }),
      flag('gated', {
        rules: [{ id: 'r', rank: 1, segmentOperator: 'OR_SEGMENT_OPERATOR', segments: [segment('everyone')], distributions: [], validFrom: iso(T) }],
        prerequisites: [{ flagKey: 'launch', enabled: true }],
      }),
    ],
  };
}

async function serverAt(t: Parameters<typeof startServer>[0], start: number) {
  const source = new InProcessSnapshotSource();
  hold(source, timedDocument(), 7, 'murmur3');
  source.markReady();
  const clock = { ms: start };
  const api = await startServer(t, { source, now: () => clock.ms, hash: 'murmur3' });
  return { api, clock };
}

test('the snapshot in Ensign\'s format is the held document with its revision and hash, whatever the time', async (t) => {
  const { api, clock } = await serverAt(t, T - 1);
  const before = await api.get(`${SNAPSHOT}?format=ensign`);
  t.is(before.status, 200, before.text);
  t.deepEqual(before.body, { ...timedDocument(), revision: 7, hash: 'murmur3' });
  const etag = before.headers.get('etag')!;
  t.regex(etag, /^[0-9a-f]{40}$/);
  clock.ms = T + 1;
  t.is((await api.get(`${SNAPSHOT}?format=ensign`, { 'If-None-Match': etag })).status, 304, 'the tag does not move with a boundary');
  const folded = await api.get(SNAPSHOT, { 'X-Flipt-Accept-Server-Version': '1.61.0' });
  t.not(folded.headers.get('etag'), etag);
  t.false(folded.text.includes('"schedules"'), 'Flipt\'s clients are still served the folded document');
});

test('the stream in Ensign\'s format carries the held document, its revision, hash and digest', async (t) => {
  const { api } = await serverAt(t, T - 1);
  const stream = await openStream(`${api.url}${STREAM}?format=ensign`);
  t.teardown(() => stream.close());
  const first = await stream.message(0);
  const unary = await api.get(`${SNAPSHOT}?format=ensign`);
  t.deepEqual(first, { ...timedDocument(), revision: 7, hash: 'murmur3', digest: unary.headers.get('etag') });
  t.deepEqual(stream.badLines, []);
});

test('another format is refused naming the field', async (t) => {
  const { api } = await serverAt(t, T - 1);
  assertError(t, await api.get(`${SNAPSHOT}?format=flipt`), 400, 3, 'invalid field format: must be ensign when sent');
});
