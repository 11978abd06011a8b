/**
 * `authorization.required` on a running `ensign server` with Flipt's role data: the first token is
 * an admin through its bootstrap metadata, a viewer made by it reads but may not write over HTTP
 * and gRPC, evaluation is never checked, and a data file that does not parse stops the start.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { type EnsignProcess, eventually, freePort, type JsonClient, jsonClient, scratchDir, startEnsign, runEnsign } from '@ensign/testkit';
import { bearerClient } from '../helpers/api.js';
import { serviceClient } from '../helpers/grpc-client.js';

const ADMIN = 'admin-s3cr3t-for-authorization';
const ROLES = {
  roles: [
    { name: 'admin', rules: [{ resource: '*', actions: ['*'] }] },
    { name: 'viewer', rules: [{ resource: '*', actions: ['read'] }] },
  ],
};

const processes: EnsignProcess[] = [];
test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
});

function env(dataPath: string): Record<string, string> {
  return {
    ENSIGN_AUTHENTICATION_REQUIRED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: ADMIN,
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_METADATA: JSON.stringify({ 'io.flipt.auth.role': 'admin' }),
    ENSIGN_AUTHORIZATION_REQUIRED: 'true',
    ENSIGN_AUTHORIZATION_LOCAL_DATA_PATH: dataPath,
  };
}

const as = (p: EnsignProcess, token: string): JsonClient => bearerClient(p.baseUrl, token);

test('an admin bootstrap token and a viewer: reads pass, writes are 403 over HTTP and PermissionDenied over gRPC, evaluation is unchecked', async (t) => {
  const dir = scratchDir();
  const data = join(dir, 'roles.json');
  writeFileSync(data, JSON.stringify(ROLES));
  const auditLog = join(dir, 'audit.log');
  const server = await startEnsign({ env: { ...env(data), ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'true', ENSIGN_AUDIT_SINKS_LOG_FILE: auditLog } });
  processes.push(server);
  const admin = as(server, ADMIN);
  t.is((await admin.post('/api/v1/namespaces/default/flags', { key: 'beta', name: 'beta', type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status, 200);
  const made = await admin.post('/auth/v1/method/token', { name: 'looker', description: '', metadata: { 'io.flipt.auth.role': 'viewer' } });
  t.is(made.status, 200, made.text);
  const viewer = as(server, made.body.clientToken);

  t.is((await viewer.get('/api/v1/namespaces/default/flags/beta')).status, 200);
  const refused = await viewer.put('/api/v1/namespaces/default/flags/beta', { key: 'beta', name: 'beta', enabled: false });
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { code: 7, message: 'permission denied', details: [] });
  t.is((await viewer.post('/auth/v1/method/token', { name: 'escalate', description: '' })).status, 403, 'a viewer may not mint tokens');
  t.like((await viewer.post('/evaluate/v1/boolean', { flagKey: 'beta', entityId: 'u1', context: {} })).body, { enabled: true });
  t.is((await viewer.get('/auth/v1/self')).status, 200, '/auth/v1/self is never checked');
  // The client-side snapshot needs flag:read and segment:read, as in Flipt.
  const snapshotPath = '/internal/v1/evaluation/snapshot/namespace/default';
  t.is((await viewer.get(snapshotPath)).status, 200);
  const roleless = await admin.post('/auth/v1/method/token', { name: 'roleless', description: '' });
  const nobody = as(server, roleless.body.clientToken);
  t.like((await nobody.post('/evaluate/v1/boolean', { flagKey: 'beta', entityId: 'u1', context: {} })).body, { enabled: true }, 'evaluation needs no role');
  const snapshot = await nobody.get(snapshotPath);
  t.is(snapshot.status, 403);
  t.deepEqual(snapshot.body, { code: 7, message: 'permission denied', details: [] });
  t.regex(server.logs(), /"msg":"permission denied"/);
  // The admin's flag creation and the refused update fill the audit buffer (capacity 2): both reach the log sink.
  const denied = async () => (existsSync(auditLog) ? (await readFile(auditLog, 'utf8')).split('\n').filter((l) => l.includes('"status":"denied"')) : []);
  t.true(await eventually(async () => (await denied()).length >= 1));
  t.like(JSON.parse((await denied())[0] as string), { type: 'flag', action: 'updated', status: 'denied', payload: { namespace_key: 'default' } });

  const grpc = serviceClient(server.grpcAddress, 'flipt.Flipt', { authorization: `Bearer ${made.body.clientToken}` });
  t.teardown(() => grpc.close());
  t.is((await grpc.call('GetFlag', { namespaceKey: 'default', key: 'beta' })).code, 0);
  const write = await grpc.call('DeleteFlag', { namespaceKey: 'default', key: 'beta' });
  t.is(write.code, 7);
  t.is(write.details, 'permission denied');
  t.is((await admin.get('/api/v1/namespaces/default/flags/beta')).status, 200, 'the refused delete changed nothing');

  // `ensign authz explain` says the same as the server decides.
  const explained = await runEnsign(['authz', 'explain', '-a', server.baseUrl, `--token=${made.body.clientToken}`]);
  t.is(explained.code, 0, explained.stderr);
  t.regex(explained.stdout, /authorization: required/);
  t.regex(explained.stdout, /^NAMESPACE\s+NAMESPACE\s+FLAG\s+SEGMENT$/m);
  t.regex(explained.stdout, /^default\s+read\s+read\s+read$/m);
  t.regex(explained.stdout, /^tokens: read$/m);
  const asAdmin = await runEnsign(['authz', 'explain', '-a', server.baseUrl, `--token=${ADMIN}`, '-n', 'default']);
  // A role's `*` approves change requests (listed with the namespace's actions) but never bypasses a change policy.
  t.regex(asAdmin.stdout, /^default\s+create,read,update,delete,approve\s+create,read,update,delete\s+create,read,update,delete$/m);
  const unknown = await runEnsign(['authz', 'explain', '-a', server.baseUrl, `--token=${ADMIN}`, '-n', 'nowhere']);
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /namespace "nowhere" does not exist or this credential may not view it/);
  const stranger = await runEnsign(['authz', 'explain', '-a', server.baseUrl, '--token=not-a-token']);
  t.is(stranger.code, 1);
  t.regex(stranger.stderr, /authenticat/);
  t.is((await runEnsign(['authz', 'explain'])).code, 2, 'explain needs --address');
  t.is((await runEnsign(['authz', 'show', '-a', server.baseUrl])).code, 2, 'an unknown subcommand');
});

test('a data file that does not parse stops the start with exit code 2, naming the file and line', async (t) => {
  const dir = scratchDir();
  const data = join(dir, 'roles.json');
  writeFileSync(data, '{\n  "roles": [\n    {"name": "admin", "rules": [{"resource": "*", "actions": "*"}]}\n  ]\n}\n');
  const result = await runEnsign(['server'], {
    env: { ...env(data), ENSIGN_DB_URL: `file:${join(dir, 'x.db')}`, ENSIGN_SERVER_HTTP_PORT: String(await freePort()), ENSIGN_SERVER_GRPC_PORT: String(await freePort()) },
    timeoutMs: 90_000,
  });
  t.is(result.code, 2, result.stdout + result.stderr);
  t.regex(result.stdout + result.stderr, /roles\.json:3/);
  t.notRegex(result.stdout + result.stderr, /invalid configuration/, 'the configuration itself was valid');
});

test('a data file edited while serving is reloaded; a bad edit keeps the last good roles deciding, and /health and /metrics say so', async (t) => {
  const dir = scratchDir();
  const data = join(dir, 'roles.json');
  writeFileSync(data, JSON.stringify(ROLES));
  const server = await startEnsign({ env: { ...env(data), ENSIGN_AUTHORIZATION_LOCAL_DATA_POLL_INTERVAL: '100ms' } });
  processes.push(server);
  const admin = as(server, ADMIN);
  const made = await admin.post('/auth/v1/method/token', { name: 'promoted', description: '', metadata: { 'io.flipt.auth.role': 'viewer' } });
  const viewer = as(server, made.body.clientToken);
  const create = (key: string) => viewer.post('/api/v1/namespaces/default/flags', { key, name: key, type: 'BOOLEAN_FLAG_TYPE' });
  t.is((await create('one')).status, 403);

  // Viewers become writers: picked up without a restart.
  writeFileSync(data, JSON.stringify({ roles: [...ROLES.roles.filter((r) => r.name !== 'viewer'), { name: 'viewer', rules: [{ resource: '*', actions: ['*'] }] }] }));
  t.true(await eventually(async () => (await create('two')).status === 200));

  // A broken edit: the last good roles keep deciding; the failure is logged, shown and counted.
  writeFileSync(data, '{"roles": [');
  const health = () => jsonClient(server.baseUrl).get('/health');
  t.true(await eventually(async () => (await health()).body.authorization?.ok === false));
  t.like((await health()).body, { status: 'SERVING', authorization: { ok: false, engine: 'roles' } });
  t.is((await create('three')).status, 200, 'the last good version still decides');
  t.regex(server.logs(), /"level":40[^\n]*roles\.json:1/, 'a warning names the file and line');
  const metrics = (await jsonClient(server.baseUrl).get('/metrics')).text;
  // A poll may also have caught a file half written.
  t.regex(metrics, /ensign_authorization_reload_failures_total [1-9]/);
  t.regex(metrics, /ensign_authorization_denied_total [1-9]/, 'the refusals before the reload were counted');
});

/**
 * A local stand-in for an Open Policy Agent's decision API (not OPA itself): it allows reads only,
 * lists `default` as the only viewable namespace, and can be made to stop answering.
 */
async function opaStandIn(): Promise<{ url: string; hang(): void; close(): Promise<void> }> {
  let hanging = false;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (hanging) return;
      const input = (JSON.parse(body) as { input: { request: { action: string } } }).input;
      const result = req.url === '/v1/data/flipt/authz/v1/allow' ? input.request.action === 'read' : req.url === '/v1/data/flipt/authz/v1/viewable_namespaces' ? ['default'] : undefined;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result === undefined ? {} : { result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hang: () => void (hanging = true),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The requests it stopped answering would otherwise hold the close.
        server.closeAllConnections();
      }),
  };
}

test('a Rego policy decided by an OPA over its decision API (a local stand-in): its answers hold, and one that stops answering fails closed with 503', async (t) => {
  const opa = await opaStandIn();
  t.teardown(() => opa.close());
  const dir = scratchDir();
  writeFileSync(join(dir, 'policy.rego'), 'package flipt.authz.v1\n');
  const server = await startEnsign({
    env: {
      ...env(''),
      ENSIGN_AUTHORIZATION_LOCAL_DATA_PATH: '',
      ENSIGN_AUTHORIZATION_LOCAL_POLICY_PATH: join(dir, 'policy.rego'),
      ENSIGN_AUTHORIZATION_LOCAL_POLICY_OPA_URL: opa.url,
      // Generous for a loaded CI machine; the stand-in that stops answering is refused once it passes.
      ENSIGN_AUTHORIZATION_LOCAL_POLICY_OPA_TIMEOUT: '5s',
    },
  });
  processes.push(server);
  const admin = as(server, ADMIN);
  t.is((await admin.get('/api/v1/namespaces/default/flags')).status, 200, 'reads are allowed');
  t.is((await admin.post('/api/v1/namespaces', { key: 'other', name: 'other' })).status, 403, 'the OPA allows no write');
  const listed = await admin.get('/api/v1/namespaces');
  t.deepEqual(listed.body.namespaces.map((n: { key: string }) => n.key), ['default'], 'viewable_namespaces filters the list');

  opa.hang();
  const unanswered = await admin.get('/api/v1/namespaces/default/flags');
  t.is(unanswered.status, 503);
  t.regex(unanswered.body.message, /OPA/);
  t.regex((await jsonClient(server.baseUrl).get('/metrics')).text, /ensign_authorization_failures_total [1-9]/);
});
