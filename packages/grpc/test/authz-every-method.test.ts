/**
 * Authorization over every gRPC management method the bindings serve (read from the bindings, not
 * a hand-picked list): each is a catalog operation unless Flipt skips it, and with Flipt's example
 * roles each role gets PERMISSION_DENIED exactly where the roles say, over the same checks as HTTP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { AccessPolicy, Authenticator, issueToken, ManagementAuthorization, RolePolicy } from '@ensign/auth';
import { type AppAuth, managementServices } from '@ensign/control-plane';
import { MANAGEMENT_OPERATIONS, type ManagementKind } from '@ensign/core';
import { openStore, type SqlStore } from '@ensign/store';
import { FLIPT_EXAMPLE_ROLES } from '@ensign/testkit';
import { type Client, credentials, makeGenericClientConstructor, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { pino } from 'pino';
import { grpcOperationOf } from '../src/call-auth.js';
import { authBindings, flagTimingBinding, type GrpcBinding, type RunningGrpcServer, serviceDefinition, startGrpcServer } from '../src/index.js';
import { fliptBinding } from '../src/services/flipt.service.js';

/** Methods outside authorization: Flipt's legacy evaluation and its skip list. */
const SKIPPED = new Set(['Evaluate', 'BatchEvaluate', 'GetAuthenticationSelf', 'ExpireAuthenticationSelf']);

/** What each role of Flipt's example data may do, written from that data, independently of the engine. */
const MAY: Record<string, (kind: ManagementKind, namespace: string | undefined) => boolean> = {
  admin: () => true,
  editor: (kind) => kind.resource === 'flag' || kind.resource === 'segment' || kind.action === 'read',
  viewer: (kind) => kind.action === 'read',
  namespaced_viewer: (kind, namespace) => kind.action === 'read' && namespace === 'foo',
  none: () => false,
};

let dir: string;
let store: SqlStore;
let grpc: RunningGrpcServer;
let bindings: GrpcBinding[];
const tokens: Record<string, string> = {};
const clients = new Map<string, Client & Record<string, unknown>>();

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ensign-grpc-authz-'));
  store = await openStore({ url: `file:${join(dir, 'x.db')}` });
  await store.migrate();
  const engine = new RolePolicy(FLIPT_EXAMPLE_ROLES);
  const authorization = new ManagementAuthorization({ engine: () => engine });
  const policy = new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } });
  const authenticator = new Authenticator({ store: store.authentications });
  const auth = { store: store.authentications, authenticator, policy, session: { tokenLifetimeMs: 3_600_000 }, methods: {} } as unknown as AppAuth;
  const services = managementServices(store);
  bindings = [fliptBinding({ services, authorization }), flagTimingBinding({ services }), ...authBindings({ auth })];
  grpc = await startGrpcServer({ host: '127.0.0.1', port: 0, bindings, auth: { policy, authenticator, authorization }, logger: pino({ level: 'silent' }) });
  for (const role of Object.keys(MAY)) {
    const metadata: Record<string, string> = role === 'none' ? {} : { 'io.flipt.auth.role': role };
    tokens[role] = (await issueToken(store.authentications, { name: role, description: '', metadata })).clientToken;
  }
  for (const ns of ['foo', 'bar']) {
    await store.namespaces.create({ key: ns, name: ns, description: '' });
    await store.flags.create({ namespaceKey: ns, key: 'seeded', name: 'seeded', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
  }
});

test.after.always(async () => {
  for (const client of clients.values()) client.close();
  await grpc?.shutdown(0);
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

function call(service: string, method: string, request: object, token: string): Promise<ServiceError | undefined> {
  let client = clients.get(service);
  if (client === undefined) {
    const Constructor = makeGenericClientConstructor(serviceDefinition(service), service);
    client = new Constructor(grpc.address, credentials.createInsecure()) as Client & Record<string, unknown>;
    clients.set(service, client);
  }
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  const fn = client[method] as (req: object, md: Metadata, cb: (err: ServiceError | null) => void) => void;
  return new Promise((resolve) => fn.call(client, request, metadata, (err) => resolve(err ?? undefined)));
}

const guarded = (): Array<{ service: string; method: string }> =>
  bindings.filter((b) => b.surface === 'management' || b.surface === 'auth').flatMap((b) => Object.keys(b.methods).map((method) => ({ service: b.service, method })));

test('every management and token method is an operation of the catalog, but Flipt\'s skip list', (t) => {
  const methods = guarded();
  t.true(methods.length >= 40, `only ${methods.length} methods`);
  t.deepEqual(
    methods.filter(({ method }) => !SKIPPED.has(method) && grpcOperationOf(method, {}) === undefined).map(({ service, method }) => `${service}/${method}`),
    [],
  );
});

test('each role gets PERMISSION_DENIED on every method exactly where Flipt\'s example roles say', async (t) => {
  for (const { service, method } of guarded()) {
    if (SKIPPED.has(method)) continue;
    for (const namespace of ['foo', 'bar']) {
      // Requests that are refused after authorization or name nothing that exists, so nothing is changed.
      const request = { namespaceKey: namespace, key: method.endsWith('Namespace') && method !== 'CreateNamespace' ? namespace : 'x', flagKey: 'x', segmentKey: 'x', id: 'x', ruleId: 'x' };
      const operation = grpcOperationOf(method, request);
      if (operation === undefined) throw new Error(`${method} has no operation`);
      const touches = operation.namespace ?? (method === 'ListNamespaces' ? undefined : 'default');
      for (const [role, may] of Object.entries(MAY)) {
        const err = await call(service, method, request, tokens[role] as string);
        const allowed = method === 'ListNamespaces' || MANAGEMENT_OPERATIONS[operation.name].every((kind) => may(kind, touches));
        const label = `${role} ${method} in ${namespace}: ${err === undefined ? 'OK' : `${err.code} ${err.details}`}`;
        if (allowed) t.not(err?.code, status.PERMISSION_DENIED, label);
        else t.like(err, { code: status.PERMISSION_DENIED, details: 'permission denied' }, label);
      }
    }
  }
});
