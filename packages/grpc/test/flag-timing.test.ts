/**
 * Ensign's `ensign.flags.v1.FlagTimingService` over a real grpc-js server and client, with Flipt's
 * example roles deciding: a flag's prerequisites, windows, ramps and pending schedules read back;
 * schedules made, listed and cancelled; errors with the HTTP API's codes and field names.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { AccessPolicy, Authenticator, currentActor, issueToken, ManagementAuthorization, RolePolicy } from '@ensign/auth';
import { managementServices } from '@ensign/control-plane';
import { openStore, type SqlStore } from '@ensign/store';
import { FLIPT_EXAMPLE_ROLES } from '@ensign/testkit';
import { type Client, credentials, makeGenericClientConstructor, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { pino } from 'pino';
import { flagTimingBinding, fromTimestamp, type RunningGrpcServer, serviceDefinition, startGrpcServer, toTimestamp } from '../src/index.js';
import { grpcOperationOf } from '../src/call-auth.js';
import { withoutOneofMarkers } from './flipt-harness.js';

const SERVICE = 'ensign.flags.v1.FlagTimingService';
const PAST = '2001-01-01T00:00:00.000Z';
const LATER = '2099-01-01T00:00:00.000Z';
const LATEST = '2099-06-01T00:00:00.000Z';

let dir: string;
let store: SqlStore;
let grpc: RunningGrpcServer;
let client: Client & Record<string, unknown>;
const tokens: Record<'admin' | 'viewer', string> = { admin: '', viewer: '' };

type Unary = (request: object, metadata: Metadata, callback: (err: ServiceError | null, response: any) => void) => void;

function call(method: string, request: object, role: keyof typeof tokens = 'admin'): Promise<any> {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${tokens[role]}`);
  return new Promise((resolve, reject) => (client[method] as Unary).call(client, request, metadata, (err, response) => (err === null ? resolve(response) : reject(err))));
}

const callError = (method: string, request: object, role: keyof typeof tokens = 'admin'): Promise<ServiceError> =>
  call(method, request, role).then(
    () => Promise.reject(new Error(`${method} succeeded; an error was expected`)),
    (err: ServiceError) => err,
  );

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ensign-grpc-timing-'));
  // Writes are made by the call's caller, as `ensign server` opens its store.
  store = await openStore({ url: `file:${join(dir, 'x.db')}`, actor: currentActor });
  await store.migrate();
  const engine = new RolePolicy(FLIPT_EXAMPLE_ROLES);
  const authorization = new ManagementAuthorization({ engine: () => engine });
  const policy = new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } });
  const authenticator = new Authenticator({ store: store.authentications });
  grpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    bindings: [flagTimingBinding({ services: managementServices(store) })],
    auth: { policy, authenticator, authorization },
    logger: pino({ level: 'silent' }),
  });
  for (const role of ['admin', 'viewer'] as const) {
    tokens[role] = (await issueToken(store.authentications, { name: role, description: '', metadata: { 'io.flipt.auth.role': role } })).clientToken;
  }
  const Constructor = makeGenericClientConstructor(serviceDefinition(SERVICE), SERVICE);
  client = new Constructor(grpc.address, credentials.createInsecure()) as Client & Record<string, unknown>;

  const ns = 'default';
  await store.flags.create({ namespaceKey: ns, key: 'color', name: 'Color', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: undefined });
  await store.variants.create({ namespaceKey: ns, flagKey: 'color', key: 'blue', name: 'Blue', description: '', attachment: '' });
  await store.flags.create({ namespaceKey: ns, key: 'dark', name: 'Dark', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
  await store.flags.create({
    namespaceKey: ns, key: 'checkout', name: 'Checkout', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined,
    prerequisites: [{ flagKey: 'color', variants: ['blue'] }, { flagKey: 'dark', enabled: false }],
  });
  await store.segments.create({ namespaceKey: ns, key: 'beta', name: 'Beta', description: '', matchType: 'ALL_MATCH_TYPE' });
  await store.rules.create({ namespaceKey: ns, flagKey: 'color', segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', rank: 1, validFrom: PAST, validUntil: LATER });
  await store.rollouts.create({
    namespaceKey: ns, flagKey: 'checkout', rank: 1, description: '', threshold: undefined, validUntil: LATEST,
    segment: { segmentKey: 'beta', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: true },
  });
  await store.rollouts.create({
    namespaceKey: ns, flagKey: 'checkout', rank: 2, description: '', segment: undefined, validFrom: PAST,
    threshold: { percentage: 10, value: true, ramp: [{ at: LATER, percentage: 50 }] },
  });
});

test.after.always(async () => {
  client?.close();
  await grpc?.shutdown(0);
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

test('the binding serves every method its proto declares, each a management operation of the same name', (t) => {
  const binding = flagTimingBinding({ services: managementServices(store) });
  t.is(binding.surface, 'management');
  t.deepEqual(Object.keys(binding.methods).sort(), Object.keys(serviceDefinition(SERVICE)).sort());
  for (const name of Object.keys(binding.methods)) t.deepEqual(grpcOperationOf(name, { namespaceKey: 'shop' }), { name, namespace: 'shop' }, name);
});

test.serial('a flag\'s prerequisites, its rules\' and rollouts\' windows, its ramps and its pending schedules read back', async (t) => {
  const timing = withoutOneofMarkers(await call('GetFlagTiming', { flagKey: 'checkout' }));
  const [segmentRollout, thresholdRollout] = (await store.rollouts.list('default', 'checkout', { limit: 0, offset: 0 })).items;
  t.deepEqual(timing, {
    namespaceKey: 'default',
    flagKey: 'checkout',
    prerequisites: [{ flagKey: 'color', variants: ['blue'] }, { flagKey: 'dark', enabled: false, variants: [] }],
    rules: [],
    rollouts: [
      { id: segmentRollout!.id, rank: 1, validFrom: null, validUntil: toTimestamp(LATEST), ramp: [] },
      { id: thresholdRollout!.id, rank: 2, validFrom: toTimestamp(PAST), validUntil: null, ramp: [{ at: toTimestamp(LATER), percentage: 50 }] },
    ],
    schedules: [],
  });
  const [rule] = (await store.rules.list('default', 'color', { limit: 0, offset: 0 })).items;
  t.deepEqual((await call('GetFlagTiming', { flagKey: 'color' })).rules, [{ id: rule!.id, rank: 1, validFrom: toTimestamp(PAST), validUntil: toTimestamp(LATER) }]);
  const plain = withoutOneofMarkers(await call('GetFlagTiming', { flagKey: 'dark' }));
  t.deepEqual(plain, { namespaceKey: 'default', flagKey: 'dark', prerequisites: [], rules: [], rollouts: [], schedules: [] });
  t.is((await call('GetFlagTiming', { flagKey: 'dark' }, 'viewer')).flagKey, 'dark', 'a viewer may read it');
});

test.serial('schedules: made by the caller, listed by time, cancelled once; the timing carries the pending ones', async (t) => {
  const later = await call('CreateFlagSchedule', { flagKey: 'checkout', at: toTimestamp(LATEST), enabled: false });
  const first = await call('CreateFlagSchedule', { namespaceKey: 'default', flagKey: 'checkout', at: toTimestamp(LATER), enabled: true });
  t.like(first, { namespaceKey: 'default', flagKey: 'checkout', enabled: true, status: 'PENDING_SCHEDULE_STATUS', createdBy: { method: 'METHOD_TOKEN', name: 'admin' } });
  t.is(fromTimestamp(first.at), LATER);
  t.is(first.appliedAt, null, 'not applied yet');
  t.deepEqual((await store.schedules.list('default', 'checkout')).map((s) => s.id), [first.id, later.id], 'the same schedules as over HTTP');

  const listed = await call('ListFlagSchedules', { flagKey: 'checkout' }, 'viewer');
  t.deepEqual(listed.schedules.map((s: { id: string }) => s.id), [first.id, later.id]);

  const cancelled = await call('DeleteFlagSchedule', { flagKey: 'checkout', id: later.id });
  t.like(cancelled, { id: later.id, status: 'CANCELLED_SCHEDULE_STATUS' });
  t.deepEqual((await call('GetFlagTiming', { flagKey: 'checkout' })).schedules.map((s: { id: string }) => s.id), [first.id], 'pending only');
  const again = await callError('DeleteFlagSchedule', { flagKey: 'checkout', id: later.id });
  t.is(again.code, status.FAILED_PRECONDITION);
  t.is(again.details, `schedule "${later.id}" of flag "default/checkout" is cancelled, not pending`);
});

test('bad requests are INVALID_ARGUMENT naming the field, as over HTTP', async (t) => {
  const past = await callError('CreateFlagSchedule', { flagKey: 'checkout', at: toTimestamp(PAST), enabled: true });
  t.is(past.code, status.INVALID_ARGUMENT);
  t.regex(past.details, /^invalid field at: must be in the future; 2001-01-01T00:00:00\.000Z has passed/);
  const noTime = await callError('CreateFlagSchedule', { flagKey: 'checkout', enabled: true });
  t.is(noTime.code, status.INVALID_ARGUMENT);
  t.is(noTime.details, 'invalid field at: must not be empty');
  for (const method of ['GetFlagTiming', 'ListFlagSchedules']) {
    const noFlag = await callError(method, { namespaceKey: 'default' });
    t.is(noFlag.code, status.INVALID_ARGUMENT, method);
    t.is(noFlag.details, 'invalid field flagKey: must not be empty', method);
  }
});

test('what does not exist is NOT_FOUND', async (t) => {
  for (const [method, request] of [
    ['GetFlagTiming', { flagKey: 'nope' }],
    ['ListFlagSchedules', { flagKey: 'nope' }],
    ['CreateFlagSchedule', { flagKey: 'nope', at: toTimestamp(LATER), enabled: true }],
  ] as const) {
    const err = await callError(method, request);
    t.is(err.code, status.NOT_FOUND, method);
    t.is(err.details, 'flag "default/nope" not found', method);
  }
  const schedule = await callError('DeleteFlagSchedule', { flagKey: 'checkout', id: 'nope' });
  t.is(schedule.code, status.NOT_FOUND);
  t.is(schedule.details, 'schedule "nope" not found');
});

test('what the role may not do is PERMISSION_DENIED, and nothing is written', async (t) => {
  const denied = await callError('CreateFlagSchedule', { flagKey: 'dark', at: toTimestamp(LATER), enabled: false }, 'viewer');
  t.like(denied, { code: status.PERMISSION_DENIED, details: 'permission denied' });
  t.deepEqual(await store.schedules.list('default', 'dark'), []);
});
