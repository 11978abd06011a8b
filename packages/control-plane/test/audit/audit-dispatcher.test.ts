/**
 * createAuditTrail end to end against real local receivers: retries in commit order, dead and
 * hanging receivers that never slow `record`, the event filter, buffer capacity and period, the
 * bounded queue, and shutdown.
 */
import test, { type ExecutionContext } from 'ava';
import { Registry } from 'prom-client';
import type { ChangeRecord } from '@ensign/core';
import { type AuditOptions, createAuditTrail } from '../../src/audit/index.js';
import { capturingLogger } from '../snapshot-fakes.js';
import { deadUrl, flagCreated, outcomes, queueLength, sleep, startReceiver } from './audit-helpers.js';

type Overrides = Partial<Omit<AuditOptions, 'webhook'>> & { url: string; maxBackoffMs?: number; timeoutMs?: number; fetch?: typeof fetch };

/** A trail posting to `url` (capacity 1 unless told), closed after the test. */
function trail(t: ExecutionContext, { url, maxBackoffMs = 2_000, timeoutMs, fetch, ...rest }: Overrides) {
  const { logger, lines } = capturingLogger();
  const registry = new Registry();
  const audit = createAuditTrail({ events: ['*:*'], buffer: { capacity: 1, flushPeriodMs: 60_000 }, webhook: { url, maxBackoffMs, timeoutMs }, ...rest }, { logger, registry, fetch });
  t.teardown(() => audit.close(50));
  return { audit, lines, registry };
}

const flags = (n: number, prefix = 'f') => Array.from({ length: n }, (_, i) => flagCreated(`${prefix}${i}`, i + 1));

async function until(condition: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await sleep(10);
}

test('a receiver answering 500 a few times gets every event exactly once, in commit order', async (t) => {
  const failing = new Set([0, 2, 3]);
  const receiver = await startReceiver((n) => (failing.has(n) ? 500 : 200));
  t.teardown(() => receiver.close());
  const { audit, registry } = trail(t, { url: receiver.url });
  for (const change of flags(3)) audit.record(change);
  await audit.flush();
  t.deepEqual(receiver.acceptedKeys(), ['f0', 'f1', 'f2']);
  t.is(receiver.requests.length, 6);
  t.deepEqual(await outcomes(registry, 'webhook'), { delivered: 3, retried: 3, failed: 0, dropped: 0 });
  t.is(await queueLength(registry, 'webhook'), 0);
});

test('a receiver that is down never slows record; its events are failed, counted and logged after the backoff budget', async (t) => {
  const { audit, lines, registry } = trail(t, { url: await deadUrl(), maxBackoffMs: 300, buffer: { capacity: 2, flushPeriodMs: 60_000 } });
  for (const change of flags(2)) t.is(audit.record(change) as unknown, undefined, 'record hands back nothing to wait for');
  t.is(lines.filter((l) => l.msg === 'audit event not delivered; given up').length, 0, 'both records returned before delivery gave up');
  const started = Date.now();
  await audit.flush();
  t.true(Date.now() - started >= 300, 'given up only once the backoff budget is spent');
  const { retried, ...settled } = await outcomes(registry, 'webhook');
  t.deepEqual(settled, { delivered: 0, failed: 2, dropped: 0 });
  t.true((retried ?? 0) >= 4, `${retried} retries`);
  const failures = lines.filter((l) => l.level === 50 && l.msg === 'audit event not delivered; given up');
  t.deepEqual(
    failures.map((l) => [l.sink, l.type, l.action, l.key]),
    [
      ['webhook', 'flag', 'created', 'f0'],
      ['webhook', 'flag', 'created', 'f1'],
    ],
  );
});

test('a receiver that hangs: each attempt times out, record never waits for it, the events end up failed', async (t) => {
  const receiver = await startReceiver(() => 'hang');
  t.teardown(() => receiver.close());
  const { audit, lines, registry } = trail(t, { url: receiver.url, maxBackoffMs: 250, timeoutMs: 100, buffer: { capacity: 2, flushPeriodMs: 60_000 } });
  for (const change of flags(2)) t.is(audit.record(change) as unknown, undefined, 'record hands back nothing to wait for');
  t.is(receiver.requests.length, 0, 'both records returned before anything was sent (the buffer is full, so sending starts)');
  await audit.flush();
  t.is((await outcomes(registry, 'webhook')).failed, 2);
  t.is(lines.filter((l) => l.msg === 'audit event not delivered; given up').length, 2);
  t.true(receiver.requests.length >= 4);
});

test('thousands of records against a hanging receiver never wait for it; close gives up on time and reports the rest', async (t) => {
  const receiver = await startReceiver(() => 'hang');
  t.teardown(() => receiver.close());
  // No attempt ends by itself before the test's own timeout: close can only return by giving up.
  const { audit, lines, registry } = trail(t, { url: receiver.url, timeoutMs: 600_000, buffer: { capacity: 10, flushPeriodMs: 60_000 } });
  for (const change of flags(2_000)) audit.record(change);
  t.is(receiver.requests.length, 0, 'all 2,000 records returned before anything reached the receiver');
  await audit.close(200);
  t.is((await outcomes(registry, 'webhook')).dropped, 2_000);
  t.true(lines.some((l) => l.level === 40 && l.msg === 'audit events not delivered before shutdown' && l.dropped === 2_000));
  audit.record(flagCreated('late'));
  t.true(lines.some((l) => l.msg === 'audit trail closed; change not recorded' && l.key === 'late'));
});

test('the filter: with flag:created only, variant and update events are not sent', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const { audit, registry } = trail(t, { url: receiver.url, events: ['flag:created'] });
  const variant: ChangeRecord = { ...flagCreated('x'), resource: 'variant', key: 'v1', parentKey: 'color', after: { id: 'v1', key: 'blue' } };
  audit.record(variant);
  audit.record({ ...flagCreated('color'), action: 'updated', before: {} });
  audit.record(flagCreated('color'));
  await audit.flush();
  t.deepEqual(receiver.requests.map((r) => JSON.parse(r.body.toString()) as { type: string; action: string }).map((e) => `${e.type}:${e.action}`), ['flag:created']);
  t.is((await outcomes(registry, 'webhook')).delivered, 1);
});

test('bad configuration is refused when the trail is created', (t) => {
  const { logger } = capturingLogger();
  const base = { events: ['*:*'], buffer: { capacity: 2, flushPeriodMs: 1_000 } };
  t.throws(() => createAuditTrail({ ...base, events: ['flag:created', 'segment:edited'] }, { logger }), { message: /"segment:edited"/ });
  t.throws(() => createAuditTrail({ ...base, webhook: { url: 'http://x/', templates: [{ url: 'http://y/' }], maxBackoffMs: 1 } }, { logger }), { message: /url or templates, not both/ });
  t.throws(() => createAuditTrail({ ...base, webhook: { maxBackoffMs: 1 } }, { logger }), { message: /url or templates required/ });
  t.throws(() => createAuditTrail({ ...base, webhook: { templates: [{ url: 'http://y/', body: '{{ .Oops }}' }], maxBackoffMs: 1 } }, { logger }), { message: /\.Oops/ });
  t.throws(() => createAuditTrail({ ...base, buffer: { capacity: 0, flushPeriodMs: 1 } }, { logger }), { message: /capacity/ });
});

/** A fetch that answers 200 at once and notes when each event was posted, so timings are the buffer's alone. */
function recordingFetch() {
  const posted: Array<{ key: string; at: number }> = [];
  const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
    posted.push({ key: (JSON.parse(String(init?.body)) as { payload: { key: string } }).payload.key, at: Date.now() });
    return new Response(null, { status: 200 });
  }) as typeof globalThis.fetch;
  return { posted, fetch };
}

test.serial('buffer capacity: nothing is sent until capacity events wait, then all of them in order', async (t) => {
  const { posted, fetch } = recordingFetch();
  const { audit } = trail(t, { url: 'http://receiver.test/', fetch, buffer: { capacity: 3, flushPeriodMs: 60_000 } });
  // A trail of capacity 1 sends its event at once: once it has, a trail that sent below capacity would have too.
  const control = recordingFetch();
  const { audit: controlTrail } = trail(t, { url: 'http://receiver.test/', fetch: control.fetch, buffer: { capacity: 1, flushPeriodMs: 60_000 } });
  const [a, b, c] = flags(3);
  audit.record(a as ChangeRecord);
  audit.record(b as ChangeRecord);
  controlTrail.record(flagCreated('control'));
  await until(() => control.posted.length === 1);
  t.deepEqual(control.posted.map((p) => p.key), ['control']);
  t.is(posted.length, 0);
  audit.record(c as ChangeRecord);
  await until(() => posted.length === 3, 1_000);
  t.deepEqual(posted.map((p) => p.key), ['f0', 'f1', 'f2']);
});

test.serial('buffer period: the flush comes flushPeriodMs after the first waiting event, not the last', async (t) => {
  const { posted, fetch } = recordingFetch();
  const periodMs = 200;
  const { audit } = trail(t, { url: 'http://receiver.test/', fetch, buffer: { capacity: 1_000, flushPeriodMs: periodMs } });
  const started = Date.now();
  // Events keep coming, each a quarter period after the one before: a period counted from the last
  // waiting event would never end while they do; one counted from the first ends among them.
  let recorded = 0;
  while (posted.length === 0 && recorded < 200) {
    audit.record(flagCreated(`f${recorded}`, recorded + 1));
    recorded++;
    await sleep(periodMs / 4);
  }
  t.true(posted.length > 0, `flushed while events kept coming (${recorded} recorded)`);
  t.true((posted[0]?.at ?? 0) - started >= periodMs - 5, 'not before the period');
  t.deepEqual(posted.map((p) => p.key), Array.from({ length: posted.length }, (_, i) => `f${i}`), 'what waited, in order');
});

test('flush and close send what waits in the buffer without waiting for the period', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const { audit } = trail(t, { url: receiver.url, buffer: { capacity: 10, flushPeriodMs: 60_000 } });
  audit.record(flagCreated('a'));
  await audit.flush();
  t.deepEqual(receiver.acceptedKeys(), ['a']);
  audit.record(flagCreated('b'));
  await audit.close(1_000);
  t.deepEqual(receiver.acceptedKeys(), ['a', 'b']);
});

test('a full queue drops its oldest waiting events (never the one in delivery), counted and logged once per burst', async (t) => {
  let release: (status: number) => void = () => undefined;
  const gate = new Promise<number>((resolve) => (release = resolve));
  const receiver = await startReceiver((n) => (n === 0 ? gate : 200));
  t.teardown(() => receiver.close());
  const { audit, lines, registry } = trail(t, { url: receiver.url, queueLimit: 3 });
  const [first, ...rest] = flags(10, 'k');
  audit.record(first as ChangeRecord);
  await until(() => receiver.requests.length === 1);
  for (const change of rest) audit.record(change);
  t.is(await queueLength(registry, 'webhook'), 4);
  t.is((await outcomes(registry, 'webhook')).dropped, 6);
  release(200);
  await audit.flush();
  t.deepEqual(receiver.acceptedKeys(), ['k0', 'k7', 'k8', 'k9']);
  await until(() => lines.some((l) => l.msg === 'audit queue full: dropped the oldest waiting events'));
  const reports = lines.filter((l) => l.msg === 'audit queue full: dropped the oldest waiting events');
  t.is(reports.length, 1);
  t.like(reports[0], { level: 40, sink: 'webhook', dropped: 6, limit: 3 });
});

test('record never throws, even on a record it cannot read', (t) => {
  const { logger, lines } = capturingLogger();
  const audit = createAuditTrail({ events: ['*:*'], buffer: { capacity: 1, flushPeriodMs: 1_000 }, webhook: { url: 'http://127.0.0.1:1/', maxBackoffMs: 1 } }, { logger });
  t.teardown(() => audit.close(10));
  t.notThrows(() => audit.record(null as unknown as ChangeRecord));
  t.true(lines.some((l) => l.level === 50 && l.msg === 'audit event not recorded'));
});

test('a refused write reaches the sinks as Flipt\'s event with status denied; a refused read and a filtered noun do not', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const { audit } = trail(t, { url: receiver.url, events: ['flag:*', 'token:*'] });
  const authentication = { id: 'a1', method: 1, metadata: { 'io.flipt.auth.token.name': 'ci', 'io.flipt.auth.role': 'viewer' } };
  const denied = (name: 'CreateFlag' | 'GetFlag' | 'DeleteSegment', subject: 'flag' | 'segment', action: 'create' | 'read' | 'delete') => ({
    operation: { name, namespace: 'prod' },
    input: { request: { namespace: 'prod', resource: subject, subject, action, status: 'denied' as const }, authentication },
  });
  audit.recordDenied(denied('GetFlag', 'flag', 'read'));
  audit.recordDenied(denied('DeleteSegment', 'segment', 'delete'));
  audit.recordDenied(denied('CreateFlag', 'flag', 'create'));
  await audit.flush();
  t.is(receiver.requests.length, 1, 'only the refused flag creation passes the filter');
  const event = JSON.parse((receiver.requests[0] as { body: Buffer }).body.toString());
  t.like(event, { version: '0.2', type: 'flag', action: 'created', status: 'denied', payload: { namespace_key: 'prod' }, metadata: { actor: { authentication: 'token', name: 'ci' } } });
  t.false('ensign' in event, 'a refusal changed nothing, so it carries no revision');
});
