/** `GET /metrics` of a scaled-out evaluator: readiness, per-namespace revision and age, cache usage and totals. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { pino } from 'pino';
import { defaultDocument, otherDocument, snapshotOf } from '@ensign/testkit/snapshot-fixtures';
import { createEvaluatorMetricsHandler } from '../src/evaluator-metrics.route.js';
import { approximateHeldBytes } from '../src/held-size.js';
import { NatsSnapshotSource } from '../src/nats-snapshot-source.js';
import { FakeBucket } from './helpers/fake-bucket.js';

const RECEIVED_AT = Date.parse('2025-01-01T00:00:00Z');

/** Serves the metrics handler; anything it hands on answers 418. Returns the base URL. */
async function serve(t: ExecutionContext, handler: ReturnType<typeof createEvaluatorMetricsHandler>): Promise<string> {
  const server = createServer((req, res) =>
    handler(req, res, () => {
      res.writeHead(418);
      res.end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The value of the sample line `name{labels}` (exact, labels included), or undefined. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('the metrics report readiness, each held namespace\'s revision and age, cache usage and totals', async (t) => {
  const bucket = new FakeBucket([snapshotOf(defaultDocument(), 3), snapshotOf(otherDocument(), 7)]);
  const source = new NatsSnapshotSource({ bus: bucket, hash: 'crc32', maxNamespaces: 1, maxBytes: 1 << 30, logger: pino({ level: 'silent' }), now: () => RECEIVED_AT });
  let now = RECEIVED_AT + 2500;
  const url = await serve(t, createEvaluatorMetricsHandler(source, () => now));

  const before = await (await fetch(`${url}/metrics`)).text();
  t.is(sample(before, 'ensign_evaluator_ready'), 0, 'not ready before the initial sync');
  t.false(before.includes('ensign_snapshot_revision{'));

  await source.start();
  t.teardown(() => source.stop());
  await source.load('other');
  bucket.announce(snapshotOf(defaultDocument(), 2));
  const reply = await fetch(`${url}/metrics`);
  t.is(reply.status, 200);
  t.regex(reply.headers.get('content-type') ?? '', /^text\/plain/);
  const body = await reply.text();
  t.is(sample(body, 'ensign_evaluator_ready'), 1);
  t.is(sample(body, 'ensign_snapshot_revision{namespace="other"}'), 7);
  t.is(sample(body, 'ensign_snapshot_age_seconds{namespace="other"}'), 2.5);
  t.false(body.includes('ensign_snapshot_revision{namespace="default"}'), 'dropped for "other": only held namespaces are listed');
  t.is(sample(body, 'ensign_snapshot_namespaces_held'), 1);
  t.is(sample(body, 'ensign_snapshot_namespaces_known'), 2);
  t.is(sample(body, 'ensign_snapshot_bytes_held'), approximateHeldBytes(otherDocument()));
  t.is(sample(body, 'ensign_snapshot_updates_total{outcome="applied"}'), 2);
  t.is(sample(body, 'ensign_snapshot_updates_total{outcome="deferred"}'), 1);
  t.is(sample(body, 'ensign_snapshot_updates_total{outcome="stale"}'), 1);
  t.is(sample(body, 'ensign_snapshot_updates_total{outcome="invalid"}'), 0);
  t.is(sample(body, 'ensign_snapshot_fetches_total{outcome="loaded"}'), 1);
  t.is(sample(body, 'ensign_snapshot_fetches_total{outcome="failed"}'), 0);
  t.true(body.includes('# TYPE ensign_snapshot_fetches_total counter'));
  t.true(body.includes('process_cpu_user_seconds_total'), 'with the default process metrics');

  now += 60_000;
  t.is(sample(await (await fetch(`${url}/metrics`)).text(), 'ensign_snapshot_age_seconds{namespace="other"}'), 62.5, 'ages are computed when scraped');
});

test('any other request is handed on', async (t) => {
  const source = new NatsSnapshotSource({ bus: new FakeBucket(), hash: 'crc32', maxNamespaces: 1, maxBytes: 1, logger: pino({ level: 'silent' }) });
  const url = await serve(t, createEvaluatorMetricsHandler(source));
  t.is((await fetch(`${url}/health`)).status, 418);
  t.is((await fetch(`${url}/metrics`, { method: 'POST' })).status, 418);
  t.is((await fetch(`${url}/metrics?x=1`)).status, 200);
});
