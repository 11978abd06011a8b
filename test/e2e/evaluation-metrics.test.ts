/**
 * Flipt's evaluation metrics on real processes: `ensign server` and `ensign evaluator` each count
 * the evaluations they answer, over HTTP and gRPC alike, on their own `/metrics`; with
 * `metrics.enabled: false` nothing is counted.
 */
import { status } from '@grpc/grpc-js';
import test from 'ava';
import { type EnsignProcess, jsonClient, startEnsign, testBucket } from '@ensign/testkit';
import { ok } from '../helpers/api.js';
import { seedShop } from '../helpers/evaluation-seed.js';
import { serviceClient } from '../helpers/grpc-client.js';

const nats = testBucket();
const processes: EnsignProcess[] = [];

test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await nats.drop();
});

async function start(command: 'server' | 'evaluator', extra: Record<string, string> = {}): Promise<EnsignProcess> {
  const p = await startEnsign({ command, env: { ...nats.env(), ...extra } });
  processes.push(p);
  return p;
}

/** The value of the sample line `series` in a Prometheus text body, or undefined. */
function sample(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('each process counts what it answers over HTTP and gRPC, the server its writes and publishes; metrics.enabled false counts no evaluations', async (t) => {
  const server = await start('server');
  const api = jsonClient(server.baseUrl);
  const shop = await seedShop(api, 'metrics');
  const evaluator = await start('evaluator');
  const quiet = await start('evaluator', { ENSIGN_METRICS_ENABLED: 'false' });
  const request = (entityId: string) => ({ namespaceKey: shop.ns, flagKey: 'color', entityId, context: { plan: 'pro' } });

  // An evaluator may still be catching up with the seeding: wait until it holds the server's snapshot (read without evaluating).
  const snapshotPath = `/internal/v1/evaluation/snapshot/namespace/${shop.ns}`;
  const expected = JSON.stringify((await api.get(snapshotPath)).body);
  for (const p of [evaluator, quiet]) {
    const client = jsonClient(p.baseUrl);
    let held = '';
    for (let i = 0; i < 200 && held !== expected; i++) {
      held = JSON.stringify((await client.get(snapshotPath)).body);
      if (held !== expected) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    t.is(held, expected, 'the evaluator caught up');
  }
  for (const p of [server, evaluator, quiet]) {
    const client = jsonClient(p.baseUrl);
    for (const entityId of ['u1', 'u2']) ok(await client.post('/evaluate/v1/variant', request(entityId)));
    ok(await client.post('/evaluate/v1/boolean', { namespaceKey: shop.ns, flagKey: 'new-ui', entityId: 'u1', context: { email: 'ann@corp.example' } }));
    const grpc = serviceClient(p.grpcAddress, 'flipt.evaluation.EvaluationService');
    t.teardown(() => grpc.close());
    const viaGrpc = await grpc.call('Variant', request('u3'));
    t.is(viaGrpc.code, status.OK, viaGrpc.details);
  }

  for (const [name, p] of [['server', server], ['evaluator', evaluator]] as const) {
    const body = (await fetch(`${p.baseUrl}/metrics`).then((r) => r.text()));
    // Two over HTTP, one over gRPC.
    t.is(sample(body, `flipt_evaluations_requests_total{namespace="${shop.ns}",flag="color"}`), 3, name);
    t.is(sample(body, `flipt_evaluations_results_total{namespace="${shop.ns}",flag="color",match="true",segment="pro-users",reason="MATCH_EVALUATION_REASON",value="blue",type="variant"}`), 3, name);
    t.is(sample(body, `flipt_evaluations_results_total{namespace="${shop.ns}",flag="new-ui",value="true",reason="MATCH_EVALUATION_REASON",type="boolean"}`), 1, name);
    t.is(sample(body, `flipt_evaluations_latency_milliseconds_count{namespace="${shop.ns}",flag="color"}`), 3, name);
    t.regex(body, /^# TYPE flipt_evaluations_errors_total counter$/m, name);
    // Requests by route pattern and status, gRPC calls by method and code.
    t.is(sample(body, 'http_server_request_duration_seconds_count{method="POST",route="/evaluate/v1/variant",status="200"}'), 2, name);
    t.is(sample(body, 'grpc_server_handled_total{grpc_type="unary",grpc_service="flipt.evaluation.EvaluationService",grpc_method="Variant",grpc_code="OK"}'), 1, name);
  }
  const serverBody = await fetch(`${server.baseUrl}/metrics`).then((r) => r.text());
  t.true((sample(serverBody, 'http_server_request_duration_seconds_count{method="POST",route="/api/v1/namespaces/:namespaceKey/flags",status="200"}') ?? 0) >= 6, 'the seeding’s flag creations');
  t.true((sample(serverBody, 'ensign_write_duration_seconds_count{resource="flag",action="created"}') ?? 0) >= 6, 'each write’s duration');
  t.true((sample(serverBody, 'ensign_snapshot_publish_lag_seconds_count') ?? 0) >= 1, 'how long changes took to reach the bucket');
  const quietBody = await fetch(`${quiet.baseUrl}/metrics`).then((r) => r.text());
  t.notRegex(quietBody, /flipt_evaluations_/);
  t.regex(quietBody, /^ensign_evaluator_ready 1$/m, 'the rest of /metrics is still there');
});
