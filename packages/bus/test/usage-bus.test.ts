/** Usage batches over the real NATS: stored replies, failures the sender sees, one store per batch across control planes. */
import { randomBytes } from 'node:crypto';
import type { UsageBatch } from '@ensign/core';
import test, { type ExecutionContext } from 'ava';
import { connect } from 'nats';
import { decodeUsageBatch, openUsageBus, type UsageBus, type UsageBusOptions, usageSubject } from '../src/index.js';
import { NATS_URL, recordingLogger } from './helpers/nats.js';

/** A subject prefix of this test only, as a bucket name would give it. */
const freshPrefix = (): string => `ensign_t_usage_${randomBytes(6).toString('hex')}`;

function open(t: ExecutionContext, options: Partial<UsageBusOptions> & { bucket: string }): UsageBus {
  const bus = openUsageBus({ url: NATS_URL, requestTimeoutMs: 1000, ...options });
  t.teardown(() => bus.close());
  return bus;
}

let seq = 0;
const batch = (count = 1): UsageBatch => ({
  id: `test-${++seq}`,
  at: Date.now(),
  counts: [{ namespaceKey: 'default', flagKey: 'color', value: 'blue', reason: 'MATCH_EVALUATION_REASON', count }],
});

/** Waits until the sender's connection is up (it connects in the background). */
async function connected(bus: UsageBus): Promise<void> {
  for (let i = 0; i < 200 && bus.status() !== 'connected'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('a shipped batch reaches the receiver whole, and the sender hears it was stored', async (t) => {
  const bucket = freshPrefix();
  const received: UsageBatch[] = [];
  const server = open(t, { bucket });
  await server.serveUsage(async (b) => void received.push(b)).ready;
  const sender = open(t, { bucket });
  await connected(sender);
  const sent = batch(7);
  await sender.shipUsage(sent);
  t.deepEqual(received, [sent]);
});

test('with nobody serving, sending fails at once, naming the subject', async (t) => {
  const bucket = freshPrefix();
  // A timeout this long would outlast the test: the failure must come from NATS's "no responders".
  const sender = open(t, { bucket, requestTimeoutMs: 600_000 });
  await connected(sender);
  const err = await t.throwsAsync(sender.shipUsage(batch()));
  t.is(err?.message, `no control plane is serving ${usageSubject(bucket)}`, 'no responders is not a timeout');
});

test('a receiver that fails makes the sender fail with its reason, and the server logs it', async (t) => {
  const bucket = freshPrefix();
  const logger = recordingLogger();
  const server = open(t, { bucket, logger });
  await server.serveUsage(async () => {
    throw new Error('database is read-only');
  }).ready;
  const sender = open(t, { bucket });
  await connected(sender);
  const sent = batch();
  const err = await t.throwsAsync(sender.shipUsage(sent));
  t.is(err?.message, `the control plane did not store usage batch ${sent.id}: database is read-only`);
  t.true(logger.lines.some((l) => l.level === 'warn' && l.msg === 'usage batch not stored'));
});

test('a receiver slower than the request timeout makes the sender fail with a timeout', async (t) => {
  const bucket = freshPrefix();
  const server = open(t, { bucket });
  // The receiver answers only once the test is over.
  let release = (): void => undefined;
  const never = new Promise<void>((resolve) => (release = resolve));
  t.teardown(() => release());
  await server.serveUsage(() => never).ready;
  const sender = open(t, { bucket, requestTimeoutMs: 100 });
  await connected(sender);
  const err = await t.throwsAsync(sender.shipUsage(batch()));
  t.is(err?.message, `no control plane answered on ${usageSubject(bucket)} within 100 ms`);
});

test('with two control planes serving, each batch is stored by exactly one of them', async (t) => {
  const bucket = freshPrefix();
  const stored: Array<{ by: string; id: string }> = [];
  const one = open(t, { bucket });
  const two = open(t, { bucket });
  await Promise.all([
    one.serveUsage(async (b) => void stored.push({ by: 'one', id: b.id })).ready,
    two.serveUsage(async (b) => void stored.push({ by: 'two', id: b.id })).ready,
  ]);
  const sender = open(t, { bucket });
  await connected(sender);
  const sent = Array.from({ length: 40 }, () => batch());
  await Promise.all(sent.map((b) => sender.shipUsage(b)));
  t.deepEqual(stored.map((s) => s.id).sort(), sent.map((b) => b.id).sort(), 'every batch stored once');
  t.true(stored.some((s) => s.by === 'one') && stored.some((s) => s.by === 'two'), 'the queue group spreads batches');
});

test('buses of different buckets never see each other’s batches', async (t) => {
  const mine = freshPrefix();
  const theirs = freshPrefix();
  const other = open(t, { bucket: theirs });
  let seenByOther = 0;
  await other.serveUsage(async () => void seenByOther++).ready;
  const sender = open(t, { bucket: mine });
  await connected(sender);
  await t.throwsAsync(sender.shipUsage(batch()), { message: /no control plane is serving/ });
  t.is(seenByOther, 0);
});

test('a malformed request is answered with an error and never reaches the receiver', async (t) => {
  const bucket = freshPrefix();
  let received = 0;
  const server = open(t, { bucket });
  await server.serveUsage(async () => void received++).ready;
  const nc = await connect({ servers: NATS_URL });
  t.teardown(() => nc.close());
  const reply = await nc.request(usageSubject(bucket), new TextEncoder().encode('{"id":"x","at":1,"counts":[{"count":-1}]}'), { timeout: 1000 });
  t.regex(JSON.parse(new TextDecoder().decode(reply.data)).error, /counts must be/);
  t.is(received, 0);
  t.throws(() => decodeUsageBatch(new TextEncoder().encode('{"at":1,"counts":[]}')), { message: /id must be/ });
});

// Port 1 refuses connections, so the bus stays reconnecting.
test('while NATS is unreachable a batch fails at once instead of waiting', async (t) => {
  // A timeout this long would outlast the test: the failure must be the bus knowing it is not connected.
  const sender = open(t, { bucket: freshPrefix(), url: 'nats://127.0.0.1:1', requestTimeoutMs: 600_000 });
  await t.throwsAsync(sender.shipUsage(batch()), { message: /NATS is reconnecting/ });
});

test('stopping a service waits for the batch it is storing, and then answers nothing more', async (t) => {
  const bucket = freshPrefix();
  const server = open(t, { bucket });
  let finished = false;
  let storing = (): void => undefined;
  const started = new Promise<void>((resolve) => (storing = resolve));
  let release = (): void => undefined;
  const stored = new Promise<void>((resolve) => (release = resolve));
  const service = server.serveUsage(async () => {
    storing();
    await stored;
    finished = true;
  });
  await service.ready;
  const sender = open(t, { bucket });
  await connected(sender);
  const inFlight = sender.shipUsage(batch());
  await started;
  let stopped = false;
  const stopping = service.stop().then(() => void (stopped = true));
  // Everything the stop could do without waiting for the store has run by the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  t.false(stopped, 'the stop waits while the batch is being stored');
  release();
  await stopping;
  t.true(finished, 'the batch being stored was finished');
  await inFlight;
  await t.throwsAsync(sender.shipUsage(batch()), { message: /no control plane is serving/ });
});
