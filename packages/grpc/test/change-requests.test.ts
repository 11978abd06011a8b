/**
 * Ensign's `ensign.changes.v1.ChangeRequestService` over a real grpc-js server and client, with
 * authentication required and Flipt's example roles deciding: a request proposed, reviewed by
 * another token and applied; the proposed calls run as the caller; errors with the HTTP API's
 * messages and the gRPC code of their HTTP status.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { AccessPolicy, Authenticator, currentActor, issueToken, ManagementAuthorization, RolePolicy } from '@ensign/auth';
import { createControlPlane, managementServices } from '@ensign/control-plane';
import { openStore, type SqlStore } from '@ensign/store';
import { FLIPT_EXAMPLE_ROLES } from '@ensign/testkit';
import { type Client, credentials, makeGenericClientConstructor, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { pino } from 'pino';
import { type CallAuthOptions, changeRequestBinding, fliptBinding, fromProtoValue, fromTimestamp, type RunningGrpcServer, serviceDefinition, startGrpcServer } from '../src/index.js';

const SERVICE = 'ensign.changes.v1.ChangeRequestService';
const SESSION = { domain: '', secure: false, tokenLifetimeMs: 3_600_000, stateLifetimeMs: 600_000, csrfKey: 'test-csrf-key' };

type Who = 'alice' | 'bob' | 'viewer' | 'staging' | 'nobody' | 'forged' | 'author' | 'approver' | 'releaser';

let dir: string;
let store: SqlStore;
let grpc: RunningGrpcServer;
let client: Client & Record<string, unknown>;
const tokens: Record<Who, string> = { alice: '', bob: '', viewer: '', staging: '', nobody: '', forged: 'not-a-token', author: '', approver: '', releaser: '' };
let flipt: Client & Record<string, unknown>;

/** Flipt's example roles, and roles for a review: an author (Flipt's editor), an approver, and a releaser who may bypass. */
const ROLES = {
  roles: [
    ...FLIPT_EXAMPLE_ROLES.roles,
    { name: 'approver', rules: [{ resource: 'namespace', actions: ['read', 'approve'] }, { resource: 'flag', actions: ['read'] }] },
    { name: 'releaser', rules: [{ resource: 'namespace', actions: ['read', 'bypass'] }, { resource: 'flag', actions: ['*'] }, { resource: 'segment', actions: ['*'] }] },
  ],
};

type Unary = (request: object, metadata: Metadata, callback: (err: ServiceError | null, response: any) => void) => void;

function call(method: string, request: object, who: Who = 'alice', on: Client & Record<string, unknown> = client): Promise<any> {
  const metadata = new Metadata();
  if (who !== 'nobody') metadata.set('authorization', `Bearer ${tokens[who]}`);
  return new Promise((resolve, reject) => (on[method] as Unary).call(on, request, metadata, (err, response) => (err === null ? resolve(response) : reject(err))));
}

const callError = (method: string, request: object, who: Who = 'alice'): Promise<ServiceError> =>
  call(method, request, who).then(
    () => Promise.reject(new Error(`${method} succeeded; an error was expected`)),
    (err: ServiceError) => err,
  );

const struct = (object: Record<string, unknown>) => ({
  fields: Object.fromEntries(Object.entries(object).map(([key, value]) => [key, typeof value === 'boolean' ? { boolValue: value } : { stringValue: String(value) }])),
});

const turnOn = { method: 'PUT', path: '/api/v1/namespaces/prod/flags/checkout', body: struct({ name: 'Checkout', enabled: true }) };
const newFlag = (key: string) => ({ method: 'POST', path: '/api/v1/namespaces/prod/flags', body: struct({ key, name: key, type: 'BOOLEAN_FLAG_TYPE' }) });

/** A request by alice, in review. */
async function inReview(title: string, changes: object[]): Promise<{ id: string; digest: string }> {
  const made = await call('CreateChangeRequest', { namespaceKey: 'prod', title, changes });
  await call('SubmitChangeRequest', { namespaceKey: 'prod', id: made.id });
  return made;
}

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ensign-grpc-change-requests-'));
  // Writes are made by the call's caller, as `ensign server` opens its store.
  store = await openStore({ url: `file:${join(dir, 'x.db')}`, actor: currentActor });
  await store.migrate();
  const engine = new RolePolicy(ROLES);
  const authorization = new ManagementAuthorization({ engine: () => engine });
  const policy = new AccessPolicy({ required: true, exclude: { management: false, evaluation: false, ofrep: false } });
  const authenticator = new Authenticator({ store: store.authentications });
  const logger = pino({ level: 'silent' });
  const methods = { token: true, github: false, oidcProviders: [], kubernetes: false, jwt: false };
  const { changeRequests } = createControlPlane({ store, logger, changeRequests: store, auth: { store: store.authentications, authenticator, policy, session: SESSION, methods, authorization } });
  if (changeRequests === undefined) throw new Error('the control plane serves no change requests');
  const auth: CallAuthOptions = { policy, authenticator, authorization, protection: store.changePolicies };
  grpc = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    bindings: [changeRequestBinding({ changeRequests, logger }), fliptBinding({ services: managementServices(store), authorization })],
    auth,
    logger,
  });
  for (const [who, role] of [['alice', 'admin'], ['bob', 'admin'], ['viewer', 'viewer'], ['author', 'editor'], ['approver', 'approver'], ['releaser', 'releaser']] as const) {
    tokens[who] = (await issueToken(store.authentications, { name: who, description: '', metadata: { 'io.flipt.auth.role': role } })).clientToken;
  }
  tokens.staging = (await issueToken(store.authentications, { name: 'staging', description: '', namespaceKey: 'staging', metadata: { 'io.flipt.auth.role': 'admin' } })).clientToken;
  const Constructor = makeGenericClientConstructor(serviceDefinition(SERVICE), SERVICE);
  client = new Constructor(grpc.address, credentials.createInsecure()) as Client & Record<string, unknown>;
  const Flipt = makeGenericClientConstructor(serviceDefinition('flipt.Flipt'), 'Flipt');
  flipt = new Flipt(grpc.address, credentials.createInsecure()) as Client & Record<string, unknown>;

  for (const key of ['prod', 'staging', 'locked']) await store.namespaces.create({ key, name: key, description: '' });
  await store.flags.create({ namespaceKey: 'prod', key: 'checkout', name: 'Checkout', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
});

test.after.always(async () => {
  client?.close();
  flipt?.close();
  await grpc?.shutdown(0);
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

test('the binding serves every method its proto declares', (t) => {
  const methods = Object.keys(serviceDefinition(SERVICE)).sort();
  t.is(methods.length, 12);
  t.deepEqual(Object.keys(changeRequestBinding({ changeRequests: {} as never, logger: pino({ level: 'silent' }) }).methods).sort(), methods);
});

test.serial('proposed, submitted, approved by another token and applied over gRPC: the flag changes at apply, not before', async (t) => {
  const made = await call('CreateChangeRequest', { namespaceKey: 'prod', title: 'Launch checkout', description: 'with a banner', changes: [turnOn, newFlag('banner')] });
  t.like(made, { namespaceKey: 'prod', title: 'Launch checkout', description: 'with a banner', state: 'draft', author: { method: 'METHOD_TOKEN', name: 'alice' } });
  t.regex(made.digest, /^[0-9a-f]{64}$/);
  t.deepEqual(made.changes.map((c: { method: string; path: string }) => `${c.method} ${c.path}`), ['PUT /api/v1/namespaces/prod/flags/checkout', 'POST /api/v1/namespaces/prod/flags']);
  t.deepEqual(made.diff.map((r: { action: string; key: string }) => `${r.action} ${r.key}`), ['updated checkout', 'created banner']);
  t.like(fromProtoValue(made.diff[0].before), { enabled: false });
  t.like(fromProtoValue(made.diff[0].after), { enabled: true });
  t.is(made.diff[1].before, null, 'a creation has no before');
  t.false((await store.flags.get('prod', 'checkout')).enabled, 'nothing written when proposed');

  t.is((await call('SubmitChangeRequest', { namespaceKey: 'prod', id: made.id })).state, 'in_review');
  const approved = await call('ApproveChangeRequest', { namespaceKey: 'prod', id: made.id, digest: made.digest }, 'bob');
  t.is(approved.state, 'approved');
  t.deepEqual(approved.approvals.map((e: { kind: string; actor: { name: string } }) => `${e.kind} by ${e.actor.name}`), ['approved by bob']);
  t.false((await store.flags.get('prod', 'checkout')).enabled, 'nothing written when approved');

  const applied = await call('ApplyChangeRequest', { namespaceKey: 'prod', id: made.id });
  t.is(applied.state, 'applied');
  t.true(Number(applied.appliedRevision) > 0);
  t.true((await store.flags.get('prod', 'checkout')).enabled, 'the flag is on');
  t.is((await store.flags.get('prod', 'banner')).name, 'banner');
  const history = await store.audit.list({ namespaceKey: 'prod', resources: ['flag'], actions: [], key: 'banner', limit: 10 });
  t.deepEqual(history.events.map((e) => `${e.action} by ${e.actor?.name}`), ['created by alice'], 'the writes are made as the caller who applied them');

  const again = await callError('ApplyChangeRequest', { namespaceKey: 'prod', id: made.id });
  t.is(again.code, status.FAILED_PRECONDITION, 'applied once');
  const read = await call('GetChangeRequest', { namespaceKey: 'prod', id: made.id }, 'viewer');
  t.like(read, { id: made.id, state: 'applied', appliedRevision: applied.appliedRevision });
  t.deepEqual(read.diff, [], 'a closed request has no diff');
});

test('an invalid change is refused with INVALID_ARGUMENT naming its index, and nothing is stored', async (t) => {
  const badKey = await callError('CreateChangeRequest', { namespaceKey: 'prod', title: 't', changes: [newFlag('bad key!')] });
  t.is(badKey.code, status.INVALID_ARGUMENT);
  t.is(badKey.details, 'changes[0] (POST /api/v1/namespaces/prod/flags): invalid field key: contains invalid characters');
  const badMethod = await callError('CreateChangeRequest', { namespaceKey: 'prod', title: 't', changes: [{ method: 'PATCH', path: '/api/v1/namespaces/prod/flags/checkout' }] });
  t.like(badMethod, { code: status.INVALID_ARGUMENT, details: 'invalid field changes[0].method: must be POST, PUT or DELETE' });
  const elsewhere = await callError('CreateChangeRequest', { namespaceKey: 'prod', title: 't', changes: [{ method: 'POST', path: '/api/v1/namespaces/staging/flags', body: struct({ key: 'x', name: 'x' }) }] });
  t.like(elsewhere, { code: status.INVALID_ARGUMENT, details: 'invalid field changes[0].path: names namespace "staging"; a change request of "prod" changes that namespace only' });
  t.like(await callError('CreateChangeRequest', { namespaceKey: 'prod', title: 't' }), { code: status.INVALID_ARGUMENT, details: 'invalid field changes: must propose at least one change' });
  t.like(await callError('CreateChangeRequest', { namespaceKey: 'prod', changes: [turnOn] }), { code: status.INVALID_ARGUMENT, details: 'invalid field title: must not be empty' });
  const missing = await callError('CreateChangeRequest', { namespaceKey: 'prod', title: 't', changes: [{ method: 'PUT', path: '/api/v1/namespaces/prod/flags/ghost', body: struct({ name: 'G' }) }] });
  t.like(missing, { code: status.NOT_FOUND, details: 'changes[0] (PUT /api/v1/namespaces/prod/flags/ghost): flag "prod/ghost" not found' });
  t.like(await callError('ListChangeRequests', { namespaceKey: 'prod', states: ['drafted'] }), {
    code: status.INVALID_ARGUMENT,
    details: 'invalid field state: "drafted" is not one of draft, in_review, approved, scheduled, applied, rejected, cancelled',
  });
  // A promotion is read as the HTTP body is: it works its changes out, so none may be given.
  const promotion = await callError('CreateChangeRequest', { namespaceKey: 'prod', promoteFrom: 'staging', flags: ['checkout'], changes: [turnOn] });
  t.like(promotion, { code: status.INVALID_ARGUMENT, details: 'invalid field changes: cannot be given with promoteFrom: a promotion works its changes out' });
  const stored = (await call('ListChangeRequests', { namespaceKey: 'prod' })).changeRequests as Array<{ title: string }>;
  t.false(stored.some((r) => r.title === 't'), 'no refused request is stored');
});

test('the author may not approve their own request; a stale digest and an early apply are refused', async (t) => {
  const made = await inReview('mine', [newFlag('own')]);
  const own = await callError('ApproveChangeRequest', { namespaceKey: 'prod', id: made.id });
  t.like(own, { code: status.PERMISSION_DENIED, details: `the author of change request "${made.id}" cannot approve it` });
  const stale = await callError('ApproveChangeRequest', { namespaceKey: 'prod', id: made.id, digest: '0'.repeat(64) }, 'bob');
  t.is(stale.code, status.FAILED_PRECONDITION);
  t.regex(stale.details, /its changes were replaced/);
  t.is((await callError('ApplyChangeRequest', { namespaceKey: 'prod', id: made.id })).code, status.FAILED_PRECONDITION, 'not approved yet');
  t.is((await call('GetChangeRequest', { namespaceKey: 'prod', id: made.id })).state, 'in_review');
});

test('the proposed calls run as the caller: a viewer may read requests but proposes, approves and rejects nothing', async (t) => {
  const made = await inReview('reviewed by a viewer', [newFlag('viewed')]);
  t.true((await call('ListChangeRequests', { namespaceKey: 'prod', states: ['in_review'] }, 'viewer')).changeRequests.some((r: { id: string }) => r.id === made.id));
  const proposed = await callError('CreateChangeRequest', { namespaceKey: 'prod', title: 't', changes: [newFlag('by-viewer')] }, 'viewer');
  t.like(proposed, { code: status.PERMISSION_DENIED, details: 'changes[0] (POST /api/v1/namespaces/prod/flags): permission denied' });
  t.like(await callError('ApproveChangeRequest', { namespaceKey: 'prod', id: made.id }, 'viewer'), { code: status.PERMISSION_DENIED, details: 'permission denied' });
  t.like(await callError('RejectChangeRequest', { namespaceKey: 'prod', id: made.id, comment: 'no' }, 'viewer'), { code: status.PERMISSION_DENIED, details: 'permission denied' });
  t.is((await call('GetChangeRequest', { namespaceKey: 'prod', id: made.id })).state, 'in_review', 'still in review');
});

test('unknown requests are NOT_FOUND; no credential, a bad one or one of another namespace is UNAUTHENTICATED', async (t) => {
  t.like(await callError('GetChangeRequest', { namespaceKey: 'prod', id: 'nope' }), { code: status.NOT_FOUND, details: 'change request "prod/nope" not found' });
  t.is((await callError('SubmitChangeRequest', { namespaceKey: 'prod', id: 'nope' })).code, status.NOT_FOUND);
  t.is((await callError('ListChangeRequests', { namespaceKey: 'prod' }, 'nobody')).code, status.UNAUTHENTICATED);
  t.is((await callError('CreateChangeRequest', { namespaceKey: 'prod', title: 't', changes: [turnOn] }, 'forged')).code, status.UNAUTHENTICATED);
  t.is((await callError('RejectChangeRequest', { namespaceKey: 'prod', id: 'nope', comment: 'x' }, 'nobody')).code, status.UNAUTHENTICATED);
  t.is((await callError('ListChangeRequests', { namespaceKey: 'prod' }, 'staging')).code, status.UNAUTHENTICATED);
  t.is((await callError('RejectChangeRequest', { namespaceKey: 'prod', id: 'nope', comment: 'x' }, 'staging')).code, status.UNAUTHENTICATED);
  t.deepEqual((await call('ListChangeRequests', { namespaceKey: 'staging' }, 'staging')).changeRequests, []);
});

test('commented, rejected with a comment; scheduled for a time and cancelled', async (t) => {
  const made = await inReview('to reject', [newFlag('rejected-flag')]);
  await call('CommentChangeRequest', { namespaceKey: 'prod', id: made.id, comment: 'why?' }, 'viewer');
  t.like(await callError('CommentChangeRequest', { namespaceKey: 'prod', id: made.id }), { code: status.INVALID_ARGUMENT, details: 'invalid field comment: must not be empty' });
  const rejected = await call('RejectChangeRequest', { namespaceKey: 'prod', id: made.id, comment: 'not this week' }, 'bob');
  t.is(rejected.state, 'rejected');
  t.deepEqual(rejected.events.map((e: { kind: string; comment: string; actor: { name: string } }) => [e.kind, e.comment, e.actor.name]), [['commented', 'why?', 'viewer'], ['rejected', 'not this week', 'bob']]);

  const later = await inReview('later', [newFlag('later')]);
  await call('ApproveChangeRequest', { namespaceKey: 'prod', id: later.id }, 'bob');
  const scheduled = await call('ApplyChangeRequest', { namespaceKey: 'prod', id: later.id, applyAt: { seconds: String(Date.parse('2999-01-01T00:00:00Z') / 1000), nanos: 0 } });
  t.is(scheduled.state, 'scheduled');
  t.is(fromTimestamp(scheduled.applyAt), '2999-01-01T00:00:00.000Z');
  const cancelled = await call('CancelChangeRequest', { namespaceKey: 'prod', id: later.id });
  t.like(cancelled, { state: 'cancelled', applyAt: null });
  t.is((await callError('CancelChangeRequest', { namespaceKey: 'prod', id: later.id })).code, status.FAILED_PRECONDITION, 'cancelled is final');
});

test('a request whose changes are replaced needs approving again', async (t) => {
  const made = await inReview('to replace', [newFlag('first')]);
  await call('ApproveChangeRequest', { namespaceKey: 'prod', id: made.id }, 'bob');
  const replaced = await call('UpdateChangeRequest', { namespaceKey: 'prod', id: made.id, title: 'replaced', changes: [newFlag('second')] });
  t.like(replaced, { title: 'replaced', state: 'in_review', approvals: [] });
  t.not(replaced.digest, made.digest);
  t.deepEqual(replaced.diff.map((r: { key: string }) => r.key), ['second']);
  t.like(await callError('UpdateChangeRequest', { namespaceKey: 'prod', id: made.id, title: 'x', changes: [{ method: 'PUT', path: '' }] }), { code: status.INVALID_ARGUMENT, details: 'invalid field changes[0].path: must not be empty' });
});

test.serial('the change policy: read, raised and lowered by who may manage the namespace; an unset or bad value refused; requests are tried through it', async (t) => {
  t.deepEqual(await call('GetChangePolicy', { namespaceKey: 'locked' }, 'viewer'), { namespaceKey: 'locked', requiredApprovals: 0 });
  t.deepEqual(await call('UpdateChangePolicy', { namespaceKey: 'locked', requiredApprovals: 2 }), { namespaceKey: 'locked', requiredApprovals: 2 });
  t.like(await callError('UpdateChangePolicy', { namespaceKey: 'locked' }), { code: status.INVALID_ARGUMENT });
  t.like(await callError('UpdateChangePolicy', { namespaceKey: 'locked', requiredApprovals: -1 }), { code: status.INVALID_ARGUMENT });
  t.like(await callError('UpdateChangePolicy', { namespaceKey: 'locked', requiredApprovals: 0 }, 'viewer'), { code: status.PERMISSION_DENIED });
  t.is((await call('GetChangePolicy', { namespaceKey: 'locked' })).requiredApprovals, 2);
  // A request to a protected namespace is tried through the protection.
  const made = await call('CreateChangeRequest', { namespaceKey: 'locked', title: 'via review', changes: [{ method: 'POST', path: '/api/v1/namespaces/locked/flags', body: struct({ key: 'reviewed', name: 'Reviewed' }) }] });
  t.is(made.diff.length, 1);
  t.is((await call('UpdateChangePolicy', { namespaceKey: 'locked', requiredApprovals: 0 })).requiredApprovals, 0);
});

test.serial('roles: an author proposes and applies, only a role with approve approves, and only bypass writes to a protected namespace directly', async (t) => {
  await store.flags.create({ namespaceKey: 'locked', key: 'gate', name: 'Gate', description: '', enabled: false, type: 'BOOLEAN_FLAG_TYPE', metadata: undefined });
  await store.changePolicies.update('locked', 1);
  const gateOn = { method: 'PUT', path: '/api/v1/namespaces/locked/flags/gate', body: struct({ name: 'Gate', enabled: true }) };
  const made = await call('CreateChangeRequest', { namespaceKey: 'locked', title: 'Open the gate', changes: [gateOn] }, 'author');
  await call('SubmitChangeRequest', { namespaceKey: 'locked', id: made.id }, 'author');
  t.is((await callError('ApproveChangeRequest', { namespaceKey: 'locked', id: made.id }, 'author')).code, status.PERMISSION_DENIED, 'an editor holds no approve');
  t.is((await callError('RejectChangeRequest', { namespaceKey: 'locked', id: made.id, comment: 'no' }, 'author')).code, status.PERMISSION_DENIED);
  t.is((await call('ApproveChangeRequest', { namespaceKey: 'locked', id: made.id, digest: made.digest }, 'approver')).state, 'approved');
  t.is((await callError('ApplyChangeRequest', { namespaceKey: 'locked', id: made.id }, 'approver')).code, status.PERMISSION_DENIED, 'the changes run as the approver, who may not write flags');
  t.is((await call('ApplyChangeRequest', { namespaceKey: 'locked', id: made.id }, 'author')).state, 'applied');
  t.true((await store.flags.get('locked', 'gate')).enabled);

  const direct = (who: Who, name: string) => call('UpdateFlag', { namespaceKey: 'locked', key: 'gate', name, enabled: true }, who, flipt);
  const byAuthor = await direct('author', 'by author').catch((err: ServiceError) => err);
  t.is((byAuthor as ServiceError).code, status.PERMISSION_DENIED);
  t.regex((byAuthor as ServiceError).details, /namespace "locked" is protected/);
  t.is(((await direct('alice', 'by admin').catch((err: ServiceError) => err)) as ServiceError).code, status.PERMISSION_DENIED, 'an admin\'s `*` does not bypass');
  t.like(await direct('releaser', 'by releaser'), { name: 'by releaser' });
});
