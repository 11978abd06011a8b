/** Requests counted by method, route pattern and status, and gRPC calls by method and code, as `/metrics` writes them. */
import test from 'ava';
import { Registry } from 'prom-client';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import { registerRequestMetrics, RequestTally } from '../src/metrics/request-tally.js';
import { startServer } from './helpers/server.js';

async function scrape(tally: RequestTally): Promise<string[]> {
  const registry = new Registry();
  registerRequestMetrics(registry, tally);
  return (await registry.metrics()).split('\n');
}

const valueOf = (lines: string[], series: string): number | undefined => {
  const line = lines.find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

test('every answered evaluation request is counted under its route pattern and status', async (t) => {
  const requests = new RequestTally();
  const api = await startServer(t, { source: readySource(), requests });
  await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' });
  await api.post('/evaluate/v1/variant', { flagKey: 'missing', entityId: 'u1' });
  await api.post('/evaluate/v1/variant', 'not json');
  await api.post('/evaluate/v1/namespaces/default/variant', { flagKey: 'color', entityId: 'u1' });
  await api.post('/ofrep/v1/evaluate/flags/new-ui', { context: { targetingKey: 'u1' } });
  await api.request('GET', '/internal/v1/evaluation/snapshot/namespace/default');
  const lines = await scrape(requests);
  const count = (method: string, route: string, status: number) => valueOf(lines, `http_server_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`);
  t.is(count('POST', '/evaluate/v1/variant', 200), 1);
  t.is(count('POST', '/evaluate/v1/variant', 404), 1);
  t.is(count('POST', '/evaluate/v1/variant', 400), 1);
  t.is(count('POST', '/evaluate/v1/namespaces/{ns}/variant', 200), 1, 'the pattern, never the raw path');
  t.is(count('POST', '/ofrep/v1/evaluate/flags/{key}', 200), 1);
  t.is(count('GET', '/internal/v1/evaluation/snapshot/namespace/{key}', 200), 1);
  t.false(lines.some((l) => l.includes('route="/evaluate/v1/namespaces/default/variant"')));
  t.is(valueOf(lines, 'http_server_request_duration_seconds_bucket{method="POST",route="/evaluate/v1/variant",status="200",le="+Inf"}') ?? valueOf(lines, 'http_server_request_duration_seconds_bucket{le="+Inf",method="POST",route="/evaluate/v1/variant",status="200"}'), 1);
});

test('gRPC calls are counted by service, method and code in go-grpc-prometheus’ names', async (t) => {
  const tally = new RequestTally();
  tally.grpc('flipt.evaluation.EvaluationService', 'Variant', 0, 2);
  tally.grpc('flipt.evaluation.EvaluationService', 'Variant', 5, 1);
  tally.grpc('flipt.evaluation.EvaluationService', 'Variant', 0, 3000);
  const lines = await scrape(tally);
  const labels = 'grpc_type="unary",grpc_service="flipt.evaluation.EvaluationService",grpc_method="Variant"';
  t.is(valueOf(lines, `grpc_server_handled_total{${labels},grpc_code="OK"}`), 2);
  t.is(valueOf(lines, `grpc_server_handled_total{${labels},grpc_code="NotFound"}`), 1);
  t.is(valueOf(lines, `grpc_server_handling_seconds_count{${labels}}`), 3);
  t.is(valueOf(lines, `grpc_server_handling_seconds_bucket{${labels},le="0.005"}`), 2, 'seconds, not milliseconds');
  t.is(valueOf(lines, `grpc_server_handling_seconds_sum{${labels}}`), 3.003);
});
