/** Flipt's `flipt_evaluations_*` metrics: what each evaluation route counts, and how a scrape writes it. */
import test from 'ava';
import { Registry } from 'prom-client';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import { countFailure, EvaluationTally } from '../src/metrics/evaluation-tally.js';
import { registerEvaluationMetrics } from '../src/metrics/evaluation-metrics.js';
import { startServer } from './helpers/server.js';

async function scrape(tally: EvaluationTally): Promise<string[]> {
  const registry = new Registry();
  registerEvaluationMetrics(registry, tally);
  return (await registry.metrics()).split('\n');
}

/** The value of the line that starts with `prefix` (labels in the order written). */
function valueOf(lines: string[], prefix: string): number | undefined {
  const line = lines.find((l) => l.startsWith(`${prefix} `));
  return line === undefined ? undefined : Number(line.slice(prefix.length + 1));
}

test('every evaluation route counts requests, results and latency per namespace and flag, with Flipt’s labels', async (t) => {
  const recorder = new EvaluationTally();
  const api = await startServer(t, { source: readySource(), recorder });
  const ok = async (path: string, body: unknown) => t.is((await api.post(path, body)).status, 200, path);
  await ok('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
  await ok('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u2', context: { plan: 'pro' } });
  await ok('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u3', context: { plan: 'free' } });
  await ok('/evaluate/v1/boolean', { flagKey: 'new-ui', entityId: 'u1', context: { email: 'a@corp.example' } });
  await ok('/evaluate/v1/batch', { requests: [{ flagKey: 'color', entityId: 'u4', context: { plan: 'pro' } }, { flagKey: 'missing', entityId: 'u4' }] });
  await ok('/api/v1/evaluate', { flagKey: 'off', entityId: 'u5' });
  await ok('/ofrep/v1/evaluate/flags/new-ui', { context: { targetingKey: 'u6', email: 'b@corp.example' } });
  t.is((await api.post('/evaluate/v1/variant', { flagKey: 'missing', entityId: 'u1' })).status, 404);
  t.is((await api.post('/evaluate/v1/boolean', { flagKey: 'color', entityId: 'u1' })).status, 400);

  const lines = await scrape(recorder);
  t.is(valueOf(lines, 'flipt_evaluations_requests_total{namespace="default",flag="color"}'), 4, 'variant ×3 and one batch item');
  t.is(valueOf(lines, 'flipt_evaluations_requests_total{namespace="default",flag="new-ui"}'), 2, 'boolean route and OFREP');
  t.is(valueOf(lines, 'flipt_evaluations_requests_total{namespace="default",flag="off"}'), 1, 'the legacy route');
  t.false(lines.some((l) => l.includes('flag="missing"')), 'a flag that does not exist is not counted, as in Flipt');
  t.is(
    valueOf(lines, 'flipt_evaluations_results_total{namespace="default",flag="color",match="true",segment="pro-users",reason="MATCH_EVALUATION_REASON",value="blue",type="variant"}'),
    3,
  );
  t.is(valueOf(lines, 'flipt_evaluations_results_total{namespace="default",flag="color",match="false",segment="",reason="DEFAULT_EVALUATION_REASON",value="red",type="variant"}'), 1);
  t.is(valueOf(lines, 'flipt_evaluations_results_total{namespace="default",flag="new-ui",value="true",reason="MATCH_EVALUATION_REASON",type="boolean"}'), 2);
  t.is(valueOf(lines, 'flipt_evaluations_results_total{namespace="default",flag="off",match="false",segment="",reason="FLAG_DISABLED_EVALUATION_REASON",value="red",type="variant"}'), 1);
  t.is(valueOf(lines, 'flipt_evaluations_latency_milliseconds_bucket{le="+Inf",namespace="default",flag="color"}') ?? valueOf(lines, 'flipt_evaluations_latency_milliseconds_bucket{namespace="default",flag="color",le="+Inf"}'), 4);
  t.is(valueOf(lines, 'flipt_evaluations_latency_milliseconds_count{namespace="default",flag="color"}'), 4);
  t.true((valueOf(lines, 'flipt_evaluations_latency_milliseconds_sum{namespace="default",flag="color"}') ?? -1) >= 0);
  t.true(lines.includes('# TYPE flipt_evaluations_latency_milliseconds histogram'));
  t.true(lines.includes('# TYPE flipt_evaluations_requests_total counter'));
});

test('latency buckets are cumulative over Flipt’s bounds; errors count only failures while evaluating', async (t) => {
  const tally = new EvaluationTally();
  const result = Object.freeze({ enabled: true, reason: 'DEFAULT_EVALUATION_REASON' as const, segmentKeys: [] });
  for (const ms of [0.2, 4, 7, 30, 20_000]) tally.boolean('ns', 'f', result, ms);
  countFailure(tally, 'ns', 'f', { errorCode: 'PARSE_ERROR', message: 'rank out of order' }, 1);
  countFailure(tally, 'ns', 'f', { errorCode: 'FLAG_NOT_FOUND', message: 'not found' }, 1);
  countFailure(tally, 'ns', 'f', { errorCode: 'TYPE_MISMATCH', message: 'type' }, 1);
  const lines = await scrape(tally);
  const bucket = (le: string) => lines.find((l) => l.startsWith('flipt_evaluations_latency_milliseconds_bucket') && l.includes(`le="${le}"`))?.split(' ')[1];
  t.deepEqual(['0', '5', '10', '25', '50', '10000', '+Inf'].map(bucket), ['0', '3', '4', '4', '5', '5', '6']);
  t.is(valueOf(lines, 'flipt_evaluations_errors_total{namespace="ns",flag="f"}'), 1);
  t.is(valueOf(lines, 'flipt_evaluations_requests_total{namespace="ns",flag="f"}'), 6, 'a failed evaluation is a request too');
  t.is(valueOf(lines, 'flipt_evaluations_latency_milliseconds_sum{namespace="ns",flag="f"}'), 0.2 + 4 + 7 + 30 + 20_000 + 1);
});

test('without a recorder nothing is counted and the routes answer as before', async (t) => {
  const api = await startServer(t, { source: readySource() });
  t.is((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' })).status, 200);
});
