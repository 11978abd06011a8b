/**
 * The scaled-out evaluator's bounded cache over a fake bucket: what it holds, what it fetches on a
 * miss (through the real evaluation handler), what it never fetches, and how a failed fetch answers.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import type { SnapshotDocument } from '@ensign/engine';
import { pino } from 'pino';
import { defaultDocument, flag, otherDocument, snapshotOf } from '@ensign/testkit/snapshot-fixtures';
import { approximateHeldBytes } from '../src/held-size.js';
import { NatsSnapshotSource, type NatsSnapshotSourceOptions } from '../src/nats-snapshot-source.js';
import { FakeBucket } from './helpers/fake-bucket.js';
import { assertError, startServer } from './helpers/server.js';

async function startedSource(t: ExecutionContext, bucket: FakeBucket, options: Partial<NatsSnapshotSourceOptions> = {}): Promise<NatsSnapshotSource> {
  const source = new NatsSnapshotSource({ bus: bucket, hash: 'crc32', maxNamespaces: 100, maxBytes: 1 << 30, logger: pino({ level: 'silent' }), ...options });
  await source.start();
  t.teardown(() => source.stop());
  return source;
}

const heldKeys = (source: NatsSnapshotSource) => [...source.namespaces().keys()].sort();

/** A namespace of one variant flag `color` whose default variant is `variant`. */
const colored = (key: string, variant: string): SnapshotDocument => ({
  namespace: { key },
  flags: [flag('color', { defaultVariant: { id: `v-${variant}`, key: variant, attachment: '' } })],
});

/** Polls (bounded) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('the initial sync fills the cache up to its byte bound; beyond it the least recently used namespace is dropped', async (t) => {
  const docs = ['a', 'b', 'c'].map((key) => colored(key, 'red'));
  const size = approximateHeldBytes(docs[0]!);
  const bucket = new FakeBucket(docs.map((doc) => snapshotOf(doc)));
  const source = await startedSource(t, bucket, { maxBytes: 2 * size });
  t.deepEqual(heldKeys(source), ['a', 'b'], 'c does not fit: only its revision is remembered');
  t.deepEqual(source.usage(), { held: 2, known: 3, bytes: 2 * size });
  t.truthy(source.get('a'), 'a used, so b is now the least recently used');
  await source.load('c');
  t.deepEqual(heldKeys(source), ['a', 'c']);
  t.deepEqual(bucket.gets, ['c']);
  t.true(source.usage().bytes <= 2 * size);
});

test('a namespace larger than the whole byte bound is held alone rather than never', async (t) => {
  const bucket = new FakeBucket([snapshotOf(colored('small', 'red')), snapshotOf(defaultDocument())]);
  const source = await startedSource(t, bucket, { maxBytes: approximateHeldBytes(defaultDocument()) - 1 });
  t.deepEqual(heldKeys(source), ['small']);
  t.truthy(await source.load('default'));
  t.deepEqual(heldKeys(source), ['default']);
  t.truthy(source.get('default'), 'held, so the next request needs no fetch');
  t.deepEqual(bucket.gets, ['default']);
});

test('a dropped namespace is fetched on its next request and answers correctly', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument()), snapshotOf(otherDocument())]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  t.deepEqual(heldKeys(source), ['default']);
  const api = await startServer(t, { source });

  const green = await api.post('/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' });
  t.like(green, { status: 200, body: { variantKey: 'green', match: true } });
  t.deepEqual(heldKeys(source), ['other'], 'the fetched namespace took the only place');
  const blue = await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
  t.like(blue, { status: 200, body: { variantKey: 'blue', match: true } });
  t.deepEqual(bucket.gets, ['other', 'default']);
  await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' });
  t.deepEqual(bucket.gets, ['other', 'default'], 'a held namespace is answered without a fetch');

  // A batch naming more namespaces than the cache holds still answers every item.
  const batch = await api.post('/evaluate/v1/batch', {
    requests: [
      { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' },
      { namespaceKey: 'default', flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } },
      { namespaceKey: 'other', flagKey: 'color', entityId: 'u2' },
    ],
  });
  t.is(batch.status, 200, batch.text);
  t.deepEqual(
    batch.body.responses.map((r: any) => r.variantResponse.variantKey),
    ['green', 'blue', 'green'],
  );
  t.is(source.usage().held, 1);
});

// Each route on a namespace that is not held (only `other` fits): the first request fetches it and answers as if it were held.
const notHeldCases: Array<[string, (api: Awaited<ReturnType<typeof startServer>>) => Promise<{ status: number; body: any }>, (t: ExecutionContext, body: any) => void]> = [
  ['variant', (api) => api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } }), (t, b) => t.like(b, { variantKey: 'blue' })],
  ['boolean', (api) => api.post('/evaluate/v1/namespaces/default/boolean', { flagKey: 'test-flag', entityId: 'test-entity' }), (t, b) => t.like(b, { enabled: true })],
  ['batch', (api) => api.post('/evaluate/v1/batch', { requests: [{ flagKey: 'foo', entityId: '2' }] }), (t, b) => t.like(b.responses[0].variantResponse, { variantKey: 'booz' })],
  ['client snapshot', (api) => api.get('/internal/v1/evaluation/snapshot/namespace/default', { 'X-Flipt-Accept-Server-Version': '1.61.0' }), (t, b) => t.deepEqual(b, defaultDocument())],
  ['OFREP flag', (api) => api.post('/ofrep/v1/evaluate/flags/color', { context: { targetingKey: 'u1', plan: 'pro' } }), (t, b) => t.like(b, { key: 'color', value: 'blue' })],
  ['OFREP bulk', (api) => api.post('/ofrep/v1/evaluate/flags', { context: { targetingKey: '1', flags: 'foo,color' } }), (t, b) => t.deepEqual(b.flags.map((f: any) => f.value), ['boz', 'red'])],
  ['legacy evaluate', (api) => api.post('/api/v1/evaluate', { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } }), (t, b) => t.like(b, { value: 'blue' })],
  ['legacy batch', (api) => api.post('/api/v1/namespaces/default/batch-evaluate', { requests: [{ flagKey: 'color', entityId: 'u1' }] }), (t, b) => t.like(b.responses[0], { value: 'red' })],
];

for (const [name, send, check] of notHeldCases) {
  test(`${name}: a namespace not held is fetched once and answered`, async (t) => {
    const bucket = new FakeBucket([snapshotOf(otherDocument()), snapshotOf(defaultDocument())]);
    const source = await startedSource(t, bucket, { maxNamespaces: 1 });
    t.deepEqual(heldKeys(source), ['other']);
    const api = await startServer(t, { source });
    const reply = await send(api);
    t.is(reply.status, 200, JSON.stringify(reply.body));
    check(t, reply.body);
    t.deepEqual(bucket.gets, ['default']);
    t.deepEqual(heldKeys(source), ['default']);
  });
}

test('a namespace the bucket never announced answers 404 at once, without asking the bucket', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument())]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  const api = await startServer(t, { source });
  assertError(t, await api.post('/evaluate/v1/variant', { namespaceKey: 'nope', flagKey: 'color', entityId: 'u1' }), 404, 5, 'flag "nope/color" not found');
  assertError(t, await api.post('/api/v1/namespaces/nope/evaluate', { flagKey: 'color', entityId: 'u1' }), 404, 5, 'flag "nope/color" not found');
  const ofrep = await api.post('/ofrep/v1/evaluate/flags/color', {}, { 'X-Flipt-Namespace': 'nope' });
  t.like(ofrep, { status: 404, body: { errorCode: 'FLAG_NOT_FOUND' } });
  t.deepEqual((await api.get('/internal/v1/evaluation/snapshot/namespace/nope')).body, { namespace: { key: 'nope' }, flags: [] });
  const batch = await api.post('/evaluate/v1/batch', { requests: [{ namespaceKey: 'nope', flagKey: 'color', entityId: 'u1' }] });
  t.like(batch.body.responses[0], { type: 'ERROR_EVALUATION_RESPONSE_TYPE' });
  t.deepEqual(bucket.gets, []);
});

test('concurrent requests for a namespace not held cause one fetch', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument()), snapshotOf(otherDocument())]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  const load = source.load.bind(source);
  let waiting = 0;
  source.load = (namespaceKey) => {
    waiting++;
    return load(namespaceKey);
  };
  const api = await startServer(t, { source });
  bucket.holdGets();
  const replies = Array.from({ length: 5 }, (_, i) => api.post('/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'color', entityId: `u${i}` }));
  await until(() => waiting === 5, 'five requests waiting for the namespace');
  bucket.releaseGets();
  for (const reply of await Promise.all(replies)) t.like(reply, { status: 200, body: { variantKey: 'green' } });
  t.deepEqual(bucket.gets, ['other']);
  t.is(source.counts.fetches.loaded, 1);
});

test('a snapshot not newer than the one announced is ignored, held or not', async (t) => {
  const bucket = new FakeBucket([snapshotOf(colored('default', 'purple'), 2)]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  const api = await startServer(t, { source });
  bucket.announce(snapshotOf(colored('default', 'red'), 1));
  bucket.announce(snapshotOf(colored('default', 'red'), 2));
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' })).body, { variantKey: 'purple' });
  t.is(source.get('default')?.snapshot.revision, 2);

  // A namespace not held: its revision is remembered, an older envelope does not lower it.
  bucket.put(snapshotOf(colored('other', 'green'), 5));
  bucket.announce(snapshotOf(colored('other', 'red'), 4));
  t.deepEqual(heldKeys(source), ['default']);
  t.like(source.counts.updates, { applied: 1, stale: 3, deferred: 1 });

  // A newer one replaces the held one.
  bucket.put(snapshotOf(colored('default', 'gold'), 3));
  t.like((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' })).body, { variantKey: 'gold' });
  t.like((await api.post('/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' })).body, { variantKey: 'green' });
  t.is(source.get('other')?.snapshot.revision, 5);
});

test('an update arriving while its namespace is being fetched wins over the older fetched one', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument()), snapshotOf(colored('other', 'red'), 1)]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  const api = await startServer(t, { source });
  bucket.holdGets();
  const reply = api.post('/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' });
  await until(() => bucket.gets.length === 1, 'the fetch');
  bucket.announce(snapshotOf(colored('other', 'green'), 2));
  bucket.releaseGets();
  t.like((await reply).body, { variantKey: 'green' });
  t.is(source.get('other')?.snapshot.revision, 2);
});

test('a fetch that fails or does not answer in time is a 503; a late answer is still taken', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument()), snapshotOf(otherDocument())]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1, fetchTimeoutMs: 50 });
  const api = await startServer(t, { source });
  const other = { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' };
  bucket.failGets = new Error('nats: connection closed');
  assertError(t, await api.post('/evaluate/v1/variant', other), 503, 14, 'namespace "other" could not be fetched from the snapshot bucket');
  const ofrep = await api.post('/ofrep/v1/evaluate/flags/color', {}, { 'X-Flipt-Namespace': 'other' });
  t.is(ofrep.status, 503);
  t.deepEqual(ofrep.body, { errorCode: 'GENERAL', errorDetails: 'namespace "other" could not be fetched from the snapshot bucket' });

  bucket.failGets = undefined;
  bucket.holdGets();
  assertError(t, await api.post('/evaluate/v1/variant', other), 503, 14, 'namespace "other" could not be fetched from the snapshot bucket');
  bucket.releaseGets();

  // The answer that came too late for its request is still taken: the next request needs no fetch.
  await until(() => source.get('other') !== undefined, 'the late answer');
  t.like(await api.post('/evaluate/v1/variant', other), { status: 200, body: { variantKey: 'green' } });
  t.is(bucket.gets.length, 3);
  t.like(source.counts.fetches, { failed: 3 });

  // A namespace dropped again is fetched again by the next request.
  await bucket.remove('other');
  await bucket.put(snapshotOf(otherDocument(), 2));
  source.get('default');
  t.like(await api.post('/evaluate/v1/variant', other), { status: 200, body: { variantKey: 'green' } });
  t.like(await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } }), { status: 200, body: { variantKey: 'blue' } });
});

test('a fetched snapshot that does not compile is a 503 without refetching, until a newer revision arrives', async (t) => {
  const broken: SnapshotDocument = { namespace: { key: 'other' }, flags: [flag('dup'), flag('dup')] };
  const bucket = new FakeBucket([snapshotOf(defaultDocument()), snapshotOf(broken, 4)]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  const api = await startServer(t, { source });
  const other = { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' };
  const message = 'namespace "other" cannot be evaluated: its snapshot at revision 4 does not compile';
  assertError(t, await api.post('/evaluate/v1/variant', other), 503, 14, message);
  assertError(t, await api.post('/evaluate/v1/variant', other), 503, 14, message);
  t.deepEqual(bucket.gets, ['other'], 'the broken revision is fetched once');
  t.is(source.counts.updates.invalid, 1);

  bucket.put(snapshotOf(otherDocument(), 5));
  t.like(await api.post('/evaluate/v1/variant', other), { status: 200, body: { variantKey: 'green' } });
});

test('a namespace deleted from the bucket is forgotten: 404 without a fetch', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument()), snapshotOf(otherDocument())]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  const api = await startServer(t, { source });
  bucket.remove('other');
  bucket.remove('default');
  assertError(t, await api.post('/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' }), 404, 5, 'flag "other/color" not found');
  assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' }), 404, 5, 'flag "default/color" not found');
  t.deepEqual(bucket.gets, []);
  t.deepEqual(source.usage(), { held: 0, known: 0, bytes: 0 });
});

test('a namespace deleted while it is being fetched answers 404', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument()), snapshotOf(otherDocument())]);
  const source = await startedSource(t, bucket, { maxNamespaces: 1 });
  const api = await startServer(t, { source });
  bucket.holdGets();
  const reply = api.post('/evaluate/v1/variant', { namespaceKey: 'other', flagKey: 'color', entityId: 'u1' });
  await until(() => bucket.gets.length === 1, 'the fetch');
  bucket.remove('other');
  bucket.releaseGets();
  assertError(t, await reply, 404, 5, 'flag "other/color" not found');
  t.deepEqual(heldKeys(source), ['default']);
  t.is(source.counts.fetches.absent, 1);
});
