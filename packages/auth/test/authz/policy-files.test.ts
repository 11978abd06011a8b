import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { Code, isAppError, type AuthorizationInput } from '@ensign/core';
import { eventually } from '@ensign/testkit';
import { OpaDecisionApi, PolicyFileError, PolicyFiles, RolePolicy, type PolicyFilesOptions } from '../../src/index.js';

const RBAC = {
  roles: [
    { name: 'editor', rules: [{ resource: 'flag', actions: ['create', 'read', 'update', 'delete'] }] },
    { name: 'namespaced_viewer', rules: [{ resource: '*', actions: ['read'], namespace: 'foo' }] },
  ],
};

const input = (role: string, action: 'create' | 'read' = 'create', namespace = 'default'): AuthorizationInput => ({
  request: { namespace, resource: 'flag', subject: 'flag', action, status: 'success' },
  authentication: { id: 'a1', method: 5, metadata: { 'io.flipt.auth.role': role } },
});

interface Logged {
  level: 'warn' | 'info';
  obj: Record<string, unknown>;
  msg: string;
}

function logger(): PolicyFilesOptions['logger'] & { logged: Logged[] } {
  const logged: Logged[] = [];
  return {
    logged,
    warn: (obj, msg) => void logged.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    info: (obj, msg) => void logged.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
  };
}

async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-authz-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Replaces a file in one step, as an editor or a ConfigMap update does, so a poll never reads half of it. */
async function put(path: string, content: string | Uint8Array): Promise<void> {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

async function started(t: ExecutionContext, options: PolicyFilesOptions): Promise<PolicyFiles> {
  const files = new PolicyFiles(options);
  await files.start();
  t.teardown(() => files.stop());
  return files;
}

test('data alone makes the role policy, reloaded when the file changes', async (t) => {
  const dir = await tempDir(t);
  const data = join(dir, 'data.json');
  await put(data, JSON.stringify(RBAC));
  const log = logger();
  const files = await started(t, { data: { path: data, pollIntervalMs: 20 }, logger: log });
  t.true(files.engine instanceof RolePolicy);
  t.true(await files.allow(input('editor')));
  t.false(await files.allow(input('viewer', 'read')));
  t.deepEqual(await files.viewableNamespaces(input('namespaced_viewer', 'read', '')), ['foo']);
  const before = files.status();
  t.like(before, { ok: true, engine: 'roles', reloadFailures: 0 });
  t.is(before.files[0]?.path, data);
  t.regex(before.files[0]?.hash ?? '', /^[0-9a-f]{64}$/);
  t.truthy(before.files[0]?.loadedAt);

  await put(data, JSON.stringify({ roles: [...RBAC.roles, { name: 'viewer', rules: [{ resource: '*', actions: ['read'] }] }] }));
  t.true(await eventually(async () => await files.allow(input('viewer', 'read'))));
  t.not(files.status().files[0]?.hash, before.files[0]?.hash);
  t.true(log.logged.some((l) => l.level === 'info' && l.msg === 'authorization policy reloaded' && l.obj['file'] === data));
});

test('a bad new version is refused with its file and line; the last good one keeps deciding until a good one comes', async (t) => {
  const dir = await tempDir(t);
  const data = join(dir, 'data.json');
  await put(data, JSON.stringify(RBAC));
  const log = logger();
  const files = await started(t, { data: { path: data, pollIntervalMs: 20 }, logger: log });

  await put(data, '{\n  "roles": [\n    {"name": "editor", "rules": [{"resource": "flag", "actions": "create"}]}\n  ]\n}');
  t.true(await eventually(() => files.reloadFailures === 1));
  const status = files.status();
  t.false(status.ok);
  t.is(status.files[0]?.error, `${data}:3: roles[0].rules[0].actions must be an array of strings`);
  t.true(await files.allow(input('editor')), 'the last good data still decides');
  const warning = log.logged.find((l) => l.level === 'warn');
  t.like(warning, { obj: { file: data, line: 3 }, msg: 'authorization policy file refused; the last good version keeps deciding' });

  // The same bad version is not retried (nor counted) on every poll.
  await files.reload();
  await files.reload();
  t.is(files.reloadFailures, 1);

  // Back to the version deciding: nothing to load, the error is gone.
  await put(data, JSON.stringify(RBAC));
  t.true(await eventually(() => files.status().ok));
  t.is(files.reloadFailures, 1);

  await put(data, JSON.stringify({ roles: [] }));
  t.true(await eventually(async () => !(await files.allow(input('editor')))));
  t.true(files.status().ok);
});

test('a file that disappears is reported and the engine keeps deciding; it is loaded again when it comes back', async (t) => {
  const dir = await tempDir(t);
  const data = join(dir, 'data.json');
  await put(data, JSON.stringify(RBAC));
  const files = await started(t, { data: { path: data, pollIntervalMs: 20 }, logger: logger() });
  await rm(data);
  t.true(await eventually(() => files.status().files[0]?.error === `${data}: cannot be read (ENOENT)`));
  t.true(await files.allow(input('editor')));
  await put(data, JSON.stringify({ roles: [] }));
  t.true(await eventually(() => files.status().ok));
  t.false(await files.allow(input('editor')));
});

test('a problem at start throws, naming the file and line', async (t) => {
  const dir = await tempDir(t);
  const data = join(dir, 'data.json');
  const start = (options: Omit<PolicyFilesOptions, 'logger'>): Promise<void> => new PolicyFiles({ ...options, logger: logger() }).start();

  const missing = await t.throwsAsync(start({ data: { path: data } }), { instanceOf: PolicyFileError });
  t.is(missing?.message, `${data}: cannot be read (ENOENT)`);

  await put(data, '{"roles": [\n  {"name": "x", "rules": [}\n]}');
  t.is((await t.throwsAsync(start({ data: { path: data } })))?.message, `${data}:2: invalid JSON: expected a value, found '}'`);

  await put(data, JSON.stringify(RBAC));
  const wasm = join(dir, 'policy.wasm');
  await put(wasm, 'not compiled');
  t.regex((await t.throwsAsync(start({ policy: { path: wasm }, data: { path: data } })))?.message ?? '', new RegExp(`^${wasm}: not a WebAssembly module`));

  await put(data, '[1, 2]');
  t.is((await t.throwsAsync(start({ policy: { path: wasm }, data: { path: data } })))?.message, `${data}:1: must be a JSON object`);
});

test('a bundle as policy.path goes to the WebAssembly loader, which names the module inside it', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'policy.wasm'), Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00));
  await createTar({ gzip: true, cwd: dir, file: join(dir, 'bundle.tar.gz') }, ['policy.wasm']);
  const err = await t.throwsAsync(new PolicyFiles({ policy: { path: join(dir, 'bundle.tar.gz') }, logger: logger() }).start());
  t.regex(err?.message ?? '', new RegExp(`^${join(dir, 'bundle.tar.gz')}!/policy\\.wasm: a WebAssembly module, but not a policy compiled by OPA`));
});

test('Rego source without an OPA says exactly what to do', async (t) => {
  const dir = await tempDir(t);
  const rego = join(dir, 'policy.rego');
  await put(rego, 'package flipt.authz.v1\n\ndefault allow := false\n');
  const err = await t.throwsAsync(new PolicyFiles({ policy: { path: rego }, logger: logger() }).start(), { instanceOf: PolicyFileError });
  t.is(
    err?.message,
    `${rego} is Rego source; Ensign evaluates Rego through Open Policy Agent: set authorization.local.policy.opa_url to an OPA serving it ` +
      '(replace flipt.is_auth_method(input, "jwt") with input.authentication.method == 5 there), or compile it with ' +
      '`opa build -t wasm -e flipt/authz/v1/allow -e flipt/authz/v1/viewable_namespaces` and point policy.path at the bundle',
  );
});

test('with opa_url the OPA decides and no file is read here', async (t) => {
  // A LOCAL STAND-IN for an OPA's decision API: allows everything, defines no viewable_namespaces.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end(req.url?.endsWith('/allow') === true ? '{"result": true}' : '{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const files = await started(t, { policy: { path: '/nowhere/policy.rego', opaUrl: url, opaTimeoutMs: 500 }, logger: logger() });
  t.true(files.engine instanceof OpaDecisionApi);
  t.true(await files.allow(input('anyone')));
  t.is(await files.viewableNamespaces(input('anyone')), undefined);
  t.deepEqual(files.status(), { ok: true, engine: 'opa', files: [], reloadFailures: 0, opaUrl: url });
});

test('settings Flipt refuses are refused, and nothing decides before start', (t) => {
  t.throws(() => new PolicyFiles({ logger: logger() }), { message: 'authorization.local needs policy.path or data.path' });
  t.throws(() => new PolicyFiles({ data: { path: 'data.json', pollIntervalMs: 0 }, logger: logger() }), { message: 'authorization.local.data.poll_interval must be greater than zero' });
  t.throws(() => new PolicyFiles({ policy: { path: '' }, logger: logger() }), { message: 'authorization.local.policy.path must not be empty' });
  const files = new PolicyFiles({ data: { path: 'data.json' }, logger: logger() });
  const err = t.throws(() => files.allow(input('editor')));
  t.true(isAppError(err) && err.code === Code.Unavailable);
  t.like(files.status(), { ok: false, engine: undefined });
});
