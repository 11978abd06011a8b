/**
 * gRPC against the real processes, with a grpc-js client over the project's protos: every
 * evaluation method of `ensign server` and of an `ensign evaluator` on NATS, a representative set
 * of `flipt.Flipt` management calls with their errors, and the same evaluations over HTTP and gRPC
 * answering the same variant, reason and segment keys.
 */
import { status } from '@grpc/grpc-js';
import test from 'ava';
import { type EnsignProcess, jsonClient, type JsonClient, startEnsign, testBucket } from '@ensign/testkit';
import { ok } from '../helpers/api.js';
import { type SeededShop, SHOP_FLAGS, seedShop } from '../helpers/evaluation-seed.js';
import { serviceClient, type ServiceClient } from '../helpers/grpc-client.js';

const nats = testBucket();
const processes: EnsignProcess[] = [];
const clients: ServiceClient[] = [];
let server: EnsignProcess;
let api: JsonClient;
let shop: SeededShop;

test.before(async () => {
  server = await startEnsign({ env: nats.env() });
  processes.push(server);
  api = jsonClient(server.baseUrl);
  shop = await seedShop(api, 'grpc');
});

test.after.always(async () => {
  for (const client of clients) client.close();
  await Promise.all(processes.map((p) => p.stop()));
  await nats.drop();
});

function client(address: string, service: string): ServiceClient {
  const c = serviceClient(address, service);
  clients.push(c);
  return c;
}

const ENTITIES = ['u1', 'vip', 'ann', 'u2', 'u3'];
const request = (flagKey: string, entityId: string) => ({ namespaceKey: shop.ns, flagKey, entityId, context: { plan: 'pro', email: 'ann@corp.example' } });

/** What must agree between HTTP and gRPC answers of one evaluation. */
function essentials(answer: Record<string, unknown>): unknown {
  return {
    match: answer['match'],
    enabled: answer['enabled'],
    reason: answer['reason'],
    variantKey: answer['variantKey'],
    variantAttachment: answer['variantAttachment'],
    segmentKeys: answer['segmentKeys'],
    flagKey: answer['flagKey'],
  };
}

test.serial('Variant, Boolean and Batch over gRPC answer exactly what HTTP answers', async (t) => {
  const evaluation = client(server.grpcAddress, 'flipt.evaluation.EvaluationService');
  for (const entityId of ENTITIES) {
    for (const flagKey of ['color', 'off', 'plain', 'ids', 'split']) {
      const viaHttp = ok(await api.post('/evaluate/v1/variant', request(flagKey, entityId)));
      const viaGrpc = await evaluation.call('Variant', request(flagKey, entityId));
      t.is(viaGrpc.code, status.OK, viaGrpc.details);
      t.deepEqual(essentials(viaGrpc.response ?? {}), essentials(viaHttp), `variant ${flagKey}/${entityId}`);
    }
    const viaHttp = ok(await api.post('/evaluate/v1/boolean', request('new-ui', entityId)));
    const viaGrpc = await evaluation.call('Boolean', request('new-ui', entityId));
    t.is(viaGrpc.code, status.OK, viaGrpc.details);
    t.deepEqual(essentials(viaGrpc.response ?? {}), essentials(viaHttp), `boolean new-ui/${entityId}`);
  }

  const batch = { requests: [...SHOP_FLAGS.map((flagKey) => request(flagKey, 'vip')), request('missing', 'vip')] };
  const httpBatch = ok(await api.post('/evaluate/v1/batch', batch)).responses as Array<Record<string, unknown>>;
  const grpcBatch = await evaluation.call<{ responses: Array<Record<string, unknown>> }>('Batch', batch);
  t.is(grpcBatch.code, status.OK, grpcBatch.details);
  const kinds = (responses: Array<Record<string, unknown>>) => responses.map((r) => r['type']);
  t.deepEqual(kinds(grpcBatch.response?.responses ?? []), kinds(httpBatch));
  t.is(grpcBatch.response?.responses.at(-1)?.['type'], 'ERROR_EVALUATION_RESPONSE_TYPE', 'a missing flag is an error item, not a failed call');
  for (const [i, item] of httpBatch.entries()) {
    const grpcItem = grpcBatch.response?.responses[i] ?? {};
    const field = item['variantResponse'] ? 'variantResponse' : item['booleanResponse'] ? 'booleanResponse' : 'errorResponse';
    t.deepEqual(essentials((grpcItem[field] ?? {}) as Record<string, unknown>), essentials((item[field] ?? {}) as Record<string, unknown>), `batch item ${i}`);
  }
});

test.serial('evaluation errors carry the gRPC status of the same error', async (t) => {
  const evaluation = client(server.grpcAddress, 'flipt.evaluation.EvaluationService');
  const missing = await evaluation.call('Variant', request('missing', 'u1'));
  t.is(missing.code, status.NOT_FOUND);
  t.is(missing.details, `flag "${shop.ns}/missing" not found`);
  const wrongType = await evaluation.call('Variant', request('new-ui', 'u1'));
  t.is(wrongType.code, status.INVALID_ARGUMENT);
  t.is(wrongType.details, (await api.post('/evaluate/v1/variant', request('new-ui', 'u1'))).body.message, 'the same message as HTTP');
});

test.serial('DataService answers the client-side snapshot of a namespace', async (t) => {
  const data = client(server.grpcAddress, 'flipt.evaluation.DataService');
  const snapshot = await data.call<{ namespace: { key: string }; flags: Array<{ key: string; type: string; enabled: boolean }> }>('EvaluationSnapshotNamespace', { key: shop.ns });
  t.is(snapshot.code, status.OK, snapshot.details);
  t.is(snapshot.response?.namespace.key, shop.ns);
  const http = ok(await api.get(`/internal/v1/evaluation/snapshot/namespace/${shop.ns}`));
  const keysOf = (flags: Array<{ key: string; enabled: boolean }>) => flags.map((f) => [f.key, f.enabled]);
  t.deepEqual(keysOf(snapshot.response?.flags ?? []), keysOf(http.flags));
});

test.serial('flipt.Flipt: create, read, list, update and delete a flag; errors as HTTP has them', async (t) => {
  const flipt = client(server.grpcAddress, 'flipt.Flipt');
  const created = await flipt.call<Record<string, unknown>>('CreateFlag', { namespaceKey: shop.ns, key: 'from-grpc', name: 'From gRPC', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  t.is(created.code, status.OK, created.details);
  t.like(created.response, { key: 'from-grpc', name: 'From gRPC', type: 'BOOLEAN_FLAG_TYPE', enabled: true, namespaceKey: shop.ns });
  t.like(ok(await api.get(`${shop.base}/flags/from-grpc`)), { key: 'from-grpc', name: 'From gRPC', enabled: true }, 'visible over HTTP');

  const got = await flipt.call<Record<string, unknown>>('GetFlag', { namespaceKey: shop.ns, key: 'color' });
  t.is(got.code, status.OK, got.details);
  t.deepEqual(
    (got.response?.['variants'] as Array<{ key: string }>).map((v) => v.key),
    ['blue', 'red'],
  );
  const listed = await flipt.call<{ flags: Array<{ key: string }>; totalCount: number }>('ListFlags', { namespaceKey: shop.ns });
  t.is(listed.code, status.OK, listed.details);
  t.deepEqual(listed.response?.flags.map((f) => f.key), [...SHOP_FLAGS, 'from-grpc']);

  const updated = await flipt.call('UpdateFlag', { namespaceKey: shop.ns, key: 'from-grpc', name: 'Renamed', enabled: false });
  t.is(updated.code, status.OK, updated.details);
  // A write over gRPC answers once its snapshot is published: the next evaluation sees it (a
  // boolean flag without rollouts answers its enabled state).
  const evaluation = client(server.grpcAddress, 'flipt.evaluation.EvaluationService');
  const afterUpdate = await evaluation.call('Boolean', request('from-grpc', 'u1'));
  t.like(afterUpdate.response, { enabled: false, reason: 'DEFAULT_EVALUATION_REASON', flagKey: 'from-grpc' });

  t.is((await flipt.call('DeleteFlag', { namespaceKey: shop.ns, key: 'from-grpc' })).code, status.OK);
  const gone = await flipt.call('GetFlag', { namespaceKey: shop.ns, key: 'from-grpc' });
  t.is(gone.code, status.NOT_FOUND);
  t.is(gone.details, `flag "${shop.ns}/from-grpc" not found`);

  const invalid = await flipt.call('CreateFlag', { namespaceKey: shop.ns, key: 'bad key!', name: 'x' });
  t.is(invalid.code, status.INVALID_ARGUMENT);
  t.is(invalid.details, (await api.post(`${shop.base}/flags`, { key: 'bad key!', name: 'x' })).body.message, 'the same message as HTTP');
  t.is((await flipt.call('GetNamespace', { key: 'no-such-namespace' })).code, status.NOT_FOUND);
});

test.serial('ensign evaluator serves the evaluation services over gRPC from the bucket', async (t) => {
  const evaluator = await startEnsign({ command: 'evaluator', env: nats.env() });
  processes.push(evaluator);
  const evaluation = client(evaluator.grpcAddress, 'flipt.evaluation.EvaluationService');
  for (const flagKey of ['color', 'ids', 'split']) {
    const viaServer = ok(await api.post('/evaluate/v1/variant', request(flagKey, 'vip')));
    const viaEvaluator = await evaluation.call('Variant', request(flagKey, 'vip'));
    t.is(viaEvaluator.code, status.OK, viaEvaluator.details);
    t.deepEqual(essentials(viaEvaluator.response ?? {}), essentials(viaServer), flagKey);
  }
  const boolean = await evaluation.call('Boolean', request('new-ui', 'ann'));
  t.deepEqual(essentials(boolean.response ?? {}), essentials(ok(await api.post('/evaluate/v1/boolean', request('new-ui', 'ann')))));
  const batch = await evaluation.call<{ responses: unknown[] }>('Batch', { requests: [request('color', 'u1'), request('new-ui', 'u1')] });
  t.is(batch.response?.responses.length, 2);
  const snapshot = await client(evaluator.grpcAddress, 'flipt.evaluation.DataService').call<{ namespace: { key: string } }>('EvaluationSnapshotNamespace', { key: shop.ns });
  t.is(snapshot.response?.namespace.key, shop.ns);
  t.is((await client(evaluator.grpcAddress, 'flipt.Flipt').call('ListNamespaces', {})).code, status.UNIMPLEMENTED, 'management is not served by evaluators');
});
