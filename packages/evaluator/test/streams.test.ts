/**
 * Flipt v2's snapshot stream and OFREP's change events, read by a client written to Flipt's
 * framing: NDJSON `{"result": …}` lines (nothing else on the wire), or SSE refetch events for an
 * `Accept` of exactly `text/event-stream`; the current state on connect unless the client's digest
 * matches; one message per change; slow clients dropped; every stream ended at shutdown.
 */
import test from 'ava';
import { pino } from 'pino';
import { defaultDocument, flag, hold, readySource } from '@ensign/testkit/snapshot-fixtures';
import { openStream } from '@ensign/testkit/stream-client';
import { InProcessSnapshotSource } from '../src/in-process-snapshot-source.js';
import { startServer } from './helpers/server.js';

const STREAM = '/client/v2/environments/default/namespaces/default/stream';
const SSE = { Accept: 'text/event-stream' };

/** The default document with one flag's description changed: a new state of the namespace. */
const edited = (description: string) => {
  const document = defaultDocument();
  document.flags = document.flags.map((f) => (f.key === 'color' ? { ...f, description } : f));
  return document;
};

test('NDJSON: the current snapshot with its digest on connect, then one full snapshot per change', async (t) => {
  const source = readySource();
  const api = await startServer(t, { source });
  const stream = await openStream(`${api.url}${STREAM}`, { Accept: 'application/json', 'X-Flipt-Accept-Server-Version': '1.47.0' });
  t.teardown(() => stream.close());
  t.is(stream.status, 200);
  t.is(stream.headers['content-type'], 'application/json');
  t.is(stream.headers['transfer-encoding'], 'chunked');
  const first = await stream.message(0);
  t.deepEqual(first.namespace, { key: 'default' });
  t.deepEqual(first.flags, defaultDocument().flags);
  t.regex(first.digest, /^[0-9a-f]{40}$/);
  t.deepEqual(Object.keys(first), ['namespace', 'flags', 'digest']);
  // The digest is the unary snapshot's ETag for the same client.
  const unary = await api.get('/internal/v1/evaluation/snapshot/namespace/default', { 'X-Flipt-Accept-Server-Version': '1.47.0' });
  t.is(unary.headers.get('etag'), first.digest);

  hold(source, edited('one'), 2);
  const second = await stream.message(1);
  t.is(second.flags.find((f: any) => f.key === 'color').description, 'one');
  t.not(second.digest, first.digest);
  hold(source, edited('two'), 3);
  t.is((await stream.message(2)).flags.find((f: any) => f.key === 'color').description, 'two');
  // Another namespace's change is not this stream's.
  hold(source, { namespace: { key: 'other' }, flags: [flag('x')] }, 5);
  t.true(await stream.quietFor(150));
  t.deepEqual(stream.badLines, []);
  t.is(stream.text().split('\n').filter((line) => line !== '').length, 3, 'no line but messages');
});

test('a client that holds the current digest gets nothing until the namespace changes', async (t) => {
  const source = readySource();
  const api = await startServer(t, { source });
  const current = (await api.get('/internal/v1/evaluation/snapshot/namespace/default', { 'X-Flipt-Accept-Server-Version': '1.61.0' })).headers.get('etag') as string;
  const stream = await openStream(`${api.url}${STREAM}?digest=${current}`, { 'X-Flipt-Accept-Server-Version': '1.61.0' });
  t.teardown(() => stream.close());
  t.is(stream.status, 200);
  t.true(await stream.quietFor(150));
  hold(source, edited('changed'), 2);
  t.is((await stream.message(0)).flags.find((f: any) => f.key === 'color').description, 'changed');
});

test('a client naming no version (the Go SDK on its stream) is sent the whole document, default variants included', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const stream = await openStream(`${api.url}${STREAM}`);
  t.teardown(() => stream.close());
  const first = await stream.message(0);
  t.like(first.flags.find((f: any) => f.key === 'color'), { defaultVariant: { key: 'red' } });
  // One older than 1.47.0 is gated as on the unary snapshot.
  const old = await openStream(`${api.url}${STREAM}`, { 'X-Flipt-Accept-Server-Version': '1.40.0' });
  t.teardown(() => old.close());
  t.true((await old.message(0)).flags.every((f: any) => !('defaultVariant' in f)));
});

test('SSE only for an Accept of exactly text/event-stream: refetch events with the digest', async (t) => {
  const source = readySource();
  const api = await startServer(t, { source });
  const sse = await openStream(`${api.url}${STREAM}`, SSE);
  t.teardown(() => sse.close());
  t.is(sse.headers['content-type'], 'text/event-stream');
  const first = await sse.message(0);
  const data = JSON.parse(first.data);
  t.deepEqual(data, { etag: data.etag, type: 'refetchEvaluation' });
  t.regex(data.etag, /^[0-9a-f]{40}$/);
  t.is(first.id, data.etag.slice(0, 9));
  t.is(first.event, undefined);
  hold(source, edited('sse'), 2);
  t.not(JSON.parse((await sse.message(1)).data).etag, data.etag);

  for (const accept of ['text/event-stream, */*', '*/*', 'text/event-stream;q=1']) {
    const json = await openStream(`${api.url}${STREAM}`, { Accept: accept }, 'ndjson');
    t.teardown(() => json.close());
    t.is(json.headers['content-type'], 'application/json', accept);
    t.deepEqual((await json.message(0)).namespace, { key: 'default' }, accept);
  }
});

test('a namespace that does not exist keeps its stream quiet until it is created', async (t) => {
  const source = readySource();
  const api = await startServer(t, { source });
  const stream = await openStream(`${api.url}/client/v2/environments/production/namespaces/later/stream`);
  t.teardown(() => stream.close());
  t.is(stream.status, 200);
  t.true(await stream.quietFor(150));
  hold(source, { namespace: { key: 'later' }, flags: [flag('f')] }, 1);
  t.deepEqual((await stream.message(0)).flags.map((f: any) => f.key), ['f']);
  // Deleted: nothing is sent (Flipt skips a namespace missing from the snapshot).
  source.remove('later', 2);
  t.true(await stream.quietFor(150));
});

test('a digest that is not 40 characters is a 400 naming the field, in the stream framing', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const json = await openStream(`${api.url}${STREAM}?digest=abc`);
  await json.ended;
  t.is(json.status, 400);
  t.deepEqual(JSON.parse(json.text()), { error: { code: 3, message: 'invalid field digest: must be a 40-character string', details: [] } });
  t.true(json.text().endsWith('}\n'));
  const sse = await openStream(`${api.url}${STREAM}?digest=abc`, SSE);
  await sse.ended;
  t.is(sse.status, 400);
  t.is(sse.text(), 'data: {"code":3,"message":"invalid field digest: must be a 40-character string","type":"error"}\n\n');
  // An empty digest is no digest.
  const empty = await openStream(`${api.url}${STREAM}?digest=`);
  t.teardown(() => empty.close());
  t.is(empty.status, 200);
  t.truthy(await empty.message(0));
});

test('snapshots not loaded yet: the stream is refused with 503 rather than opened on a partial state', async (t) => {
  const api = await startServer(t, { source: new InProcessSnapshotSource() });
  const stream = await openStream(`${api.url}${STREAM}`);
  await stream.ended;
  t.is(stream.status, 503);
  t.is(JSON.parse(stream.text()).error.code, 14);
});

test('OFREP: the bulk answer names the change-event stream, which sends SSE refetch events; any other Accept is a 406', async (t) => {
  const source = readySource();
  const api = await startServer(t, { source });
  const bulk = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } }, { 'X-Flipt-Namespace': 'default' });
  t.is(bulk.status, 200);
  t.deepEqual(bulk.body.eventStreams, [{ type: 'sse', endpoint: { requestUri: '/ofrep/v1/_stream/default/default/events' } }]);
  const other = await api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'u1' } }, { 'X-Flipt-Namespace': 'a b' });
  t.deepEqual(other.body.eventStreams[0].endpoint.requestUri, '/ofrep/v1/_stream/default/a%20b/events');

  const events = await openStream(`${api.url}${bulk.body.eventStreams[0].endpoint.requestUri}`, { Accept: 'text/event-stream; charset=utf-8' }, 'sse');
  t.teardown(() => events.close());
  t.is(events.headers['content-type'], 'text/event-stream');
  t.is(JSON.parse((await events.message(0)).data).type, 'refetchEvaluation');
  hold(source, edited('ofrep'), 2);
  t.is(JSON.parse((await events.message(1)).data).type, 'refetchEvaluation');

  for (const headers of [{}, { Accept: 'application/json' }] as Array<Record<string, string>>) {
    const refused = await api.get('/ofrep/v1/_stream/default/default/events', headers);
    t.is(refused.status, 406);
    t.is(refused.headers.get('content-type'), 'text/plain; charset=utf-8');
    t.is(refused.text, 'text/event-stream is the only supported content type for this endpoint');
  }
});

test('a client that stops reading is dropped once it stays behind, and counted; the others keep streaming', async (t) => {
  const source = readySource();
  const logs: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => logs.push(line) });
  const api = await startServer(t, { source, logger, streamSlowAfterMs: 200 });
  const slow = await openStream(`${api.url}${STREAM}`);
  const reader = await openStream(`${api.url}${STREAM}`);
  t.teardown(() => reader.close());
  await slow.message(0);
  slow.pause();
  // Large states fill the slow client's socket buffers.
  const big = (n: number) => ({ namespace: { key: 'default' }, flags: Array.from({ length: 2000 }, (_, i) => flag(`f${i}`, { description: `${n}-${'x'.repeat(200)}` })) });
  let revision = 2;
  const deadline = Date.now() + 20_000;
  const counts = api.handler.streams?.counts;
  // A drop is counted at once; the stream leaves the open count when its socket has closed, later.
  while ((counts?.dropped === 0 || counts?.open.ndjson !== 1) && Date.now() < deadline) {
    if (counts?.dropped === 0) {
      hold(source, big(revision), revision);
      revision++;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.is(counts?.open.ndjson, 1, 'the slow stream was closed by the server');
  t.true(logs.some((line) => line.includes('snapshot stream dropped')));
  t.is(counts?.dropped, 1);
  slow.close();
  // The reader got the latest state.
  hold(source, big(revision), revision);
  const expected = `${revision}-`;
  const deadlineReader = Date.now() + 5000;
  while (Date.now() < deadlineReader && !reader.messages.at(-1)?.flags[0].description.startsWith(expected)) await new Promise((resolve) => setTimeout(resolve, 20));
  t.true(reader.messages.at(-1).flags[0].description.startsWith(expected));
});

test('shutdown ends every stream, and closed streams leave no watcher behind', async (t) => {
  const source = readySource();
  const api = await startServer(t, { source });
  const a = await openStream(`${api.url}${STREAM}`);
  const b = await openStream(`${api.url}${STREAM}`, SSE);
  await a.message(0);
  await b.message(0);
  const streams = api.handler.streams;
  t.is(streams?.size, 2);
  streams?.closeAll();
  await Promise.all([a.ended, b.ended]);
  const c = await openStream(`${api.url}${STREAM}`);
  await c.message(0);
  c.close();
  for (let i = 0; i < 250 && streams?.size !== 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(streams?.size, 0);
});
