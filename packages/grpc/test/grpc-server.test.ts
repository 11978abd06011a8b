/**
 * The gRPC server in process, with real grpc-js clients over the project's protos: handlers behind
 * authentication and namespace scope, AppErrors as their statuses, unexpected errors as a logged
 * INTERNAL, bindings that do not match the protos refused at start, health Check and Watch
 * following readiness, and a shutdown that ends Watch streams.
 */
import test from 'ava';
import { credentials, loadPackageDefinition, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { AccessPolicy, Authenticator, type Caller, digestOf, digestSetOf, inNamespaces } from '@ensign/auth';
import { notFound } from '@ensign/core';
import { service as healthService } from 'grpc-health-check';
import { makeClientConstructor } from '@grpc/grpc-js';
import type { GrpcBinding } from '../src/grpc-binding.js';
import type { GrpcLogger } from '../src/grpc-logger.js';
import { type GrpcServerOptions, type RunningGrpcServer, startGrpcServer } from '../src/grpc-server.js';
import { packageDefinition } from '../src/proto-loading.js';

const TOKEN = 'unit-token';
const SCOPED = 'unit-scoped';
const authenticator = new Authenticator({
  digests: () =>
    digestSetOf([
      { digest: digestOf(TOKEN), method: 'METHOD_TOKEN' },
      { digest: digestOf(SCOPED), method: 'METHOD_TOKEN', namespace: 'team' },
    ]),
});

/** Records error lines, so a test can tell a logged failure from a client mistake. */
function recordingLogger(): GrpcLogger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, debug: () => undefined, info: () => undefined, warn: () => undefined, error: (_obj, msg) => errors.push(msg) };
}

/** A binding over a real service of the protos, with handlers that show what the server handed them. */
const binding: GrpcBinding = {
  service: 'flipt.auth.AuthenticationService',
  surface: 'management',
  methods: {
    GetAuthentication: {
      handler: (request, caller: Caller | undefined) => {
        const id = String(request.id);
        if (id === 'missing') throw notFound('authentication "missing" not found');
        if (id === 'crash') throw new Error('secret detail of a bug');
        return { id, method: 'METHOD_TOKEN', metadata: { caller: caller?.method ?? 'none' }, createdAt: { seconds: '1', nanos: 0 } };
      },
      // The request's id names the namespace it touches, for the scope check.
      scope: (request) => inNamespaces(String(request.id)),
    },
  },
};

type Unary = (request: object, metadata: Metadata, callback: (err: ServiceError | null, response?: Record<string, unknown>) => void) => void;

const loaded = loadPackageDefinition(packageDefinition()) as unknown as { flipt: { auth: Record<string, new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => Record<string, Unary> & { close(): void }> } };

async function start(t: { teardown(fn: () => Promise<unknown>): void }, options: Partial<GrpcServerOptions> = {}): Promise<RunningGrpcServer> {
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    bindings: [binding],
    auth: { policy: new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } }), authenticator },
    logger: recordingLogger(),
    ...options,
  });
  t.teardown(() => server.shutdown(1000));
  return server;
}

function call(server: RunningGrpcServer, id: string, authorization?: string): Promise<{ err: ServiceError | null; response?: Record<string, unknown> }> {
  const Client = loaded.flipt.auth.AuthenticationService!;
  const client = new Client(server.address, credentials.createInsecure());
  const metadata = new Metadata();
  if (authorization !== undefined) metadata.set('authorization', authorization);
  return new Promise((resolve) => {
    client.GetAuthentication!({ id }, metadata, (err, response) => {
      client.close();
      resolve({ err, ...(response === undefined ? {} : { response }) });
    });
  });
}

test('a call with a valid token reaches the handler with its caller; the answer is the decoded message', async (t) => {
  const server = await start(t);
  const { err, response } = await call(server, 'team', `Bearer ${TOKEN}`);
  t.is(err, null);
  t.like(response, { id: 'team', method: 'METHOD_TOKEN', metadata: { caller: 'METHOD_TOKEN' }, createdAt: { seconds: '1', nanos: 0 } });
});

test('without a credential, or with an unknown one, the call is UNAUTHENTICATED and the handler never runs', async (t) => {
  const server = await start(t);
  for (const authorization of [undefined, 'Bearer nope', `Basic ${TOKEN}`]) {
    const { err } = await call(server, 'crash', authorization);
    t.is(err?.code, status.UNAUTHENTICATED, authorization);
    t.is(err?.details, 'request was not authenticated');
  }
});

test('a namespace-scoped token is held to the namespace the request names', async (t) => {
  const server = await start(t);
  t.is((await call(server, 'team', `Bearer ${SCOPED}`)).err, null);
  const other = await call(server, 'default', `Bearer ${SCOPED}`);
  t.is(other.err?.code, status.UNAUTHENTICATED);
});

test('AppErrors keep their code and message; anything else is INTERNAL "internal error", logged', async (t) => {
  const logger = recordingLogger();
  const server = await start(t, { logger });
  const missing = await call(server, 'missing', `Bearer ${TOKEN}`);
  t.is(missing.err?.code, status.NOT_FOUND);
  t.is(missing.err?.details, 'authentication "missing" not found');
  t.deepEqual(logger.errors, []);
  const crash = await call(server, 'crash', `Bearer ${TOKEN}`);
  t.is(crash.err?.code, status.INTERNAL);
  t.is(crash.err?.details, 'internal error');
  t.deepEqual(logger.errors, ['grpc call failed']);
});

test('methods of a bound service that no binding serves answer UNIMPLEMENTED', async (t) => {
  const server = await start(t);
  const Client = loaded.flipt.auth.AuthenticationService!;
  const client = new Client(server.address, credentials.createInsecure());
  const err = await new Promise<ServiceError | null>((resolve) => client.DeleteAuthentication!({ id: 'x' }, new Metadata(), (e) => resolve(e)));
  client.close();
  t.is(err?.code, status.UNIMPLEMENTED);
});

test('a binding the protos do not declare is refused at start', async (t) => {
  const base = { host: '127.0.0.1', port: 0, auth: { policy: AccessPolicy.OPEN, authenticator }, logger: recordingLogger() };
  await t.throwsAsync(startGrpcServer({ ...base, bindings: [{ service: 'flipt.NoSuchService', surface: 'public', methods: {} }] }), { message: /no gRPC service flipt\.NoSuchService/ });
  await t.throwsAsync(startGrpcServer({ ...base, bindings: [{ service: binding.service, surface: 'public', methods: { NoSuchMethod: { handler: () => ({}) } } }] }), {
    message: /declares no method NoSuchMethod/,
  });
});

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health') as unknown as new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
) => {
  check(request: { service: string }, callback: (err: ServiceError | null, response?: { status: string }) => void): void;
  watch(request: { service: string }): NodeJS.EventEmitter & { cancel(): void };
  close(): void;
};

test('health: Check answers the readiness of the moment for the server and each bound service; Watch streams changes', async (t) => {
  let ready = true;
  const server = await start(t, { health: { readiness: { ping: () => (ready ? Promise.resolve() : Promise.reject(new Error('down'))) }, intervalMs: 20 } });
  const client = new HealthClient(server.address, credentials.createInsecure());
  t.teardown(() => client.close());
  const check = (service: string) => new Promise<string | undefined>((resolve, reject) => client.check({ service }, (err, res) => (err ? reject(err) : resolve(res?.status))));

  t.is(await check(''), 'SERVING');
  t.is(await check(binding.service), 'SERVING');
  const unknown = await check('flipt.Nothing').catch((err: ServiceError) => err.code);
  t.is(unknown, status.NOT_FOUND);

  const seen: string[] = [];
  const watch = client.watch({ service: '' });
  watch.on('data', (res: { status: string }) => seen.push(res.status));
  watch.on('error', () => undefined);
  // The stream is open once it has reported the current status.
  for (let i = 0; i < 200 && seen.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  ready = false;
  t.is(await check(''), 'NOT_SERVING', 'Check does not wait for the next poll');
  ready = true;
  t.is(await check(binding.service), 'SERVING');
  for (let i = 0; i < 200 && seen.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  watch.cancel();
  t.deepEqual(seen.slice(0, 3), ['SERVING', 'NOT_SERVING', 'SERVING']);
});

test('shutdown reports NOT_SERVING to Watch streams, ends them, and finishes in time', async (t) => {
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    bindings: [binding],
    auth: { policy: AccessPolicy.OPEN, authenticator },
    health: { readiness: { ping: () => Promise.resolve() } },
    logger: recordingLogger(),
  });
  const client = new HealthClient(server.address, credentials.createInsecure());
  const seen: string[] = [];
  const watch = client.watch({ service: '' });
  const ended = new Promise<void>((resolve) => {
    watch.on('data', (res: { status: string }) => seen.push(res.status));
    watch.on('error', () => resolve());
    watch.on('end', () => resolve());
  });
  for (let i = 0; i < 200 && seen.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.true(await server.shutdown(10_000));
  await ended;
  client.close();
  t.deepEqual(seen, ['SERVING', 'NOT_SERVING']);
});
