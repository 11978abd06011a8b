import test from 'ava';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { Code, isAppError, type AuthorizationInput } from '@ensign/core';
import {
  AUTH_METHOD_NUMBERS,
  FLIPT_BUILTINS,
  isAuthMethod,
  loadWasmPolicy,
  PolicyFileError,
  readOpaBundle,
  WasmPolicy,
  type CompiledPolicy,
} from '../../src/index.js';

// The repository holds no policy compiled by `opa build -t wasm` (making one needs the opa
// binary), so these tests cover the loader's refusals, the builtin, the bundle reader and the
// result handling; evaluation inside a real compiled module is not exercised here.

/** The smallest valid WebAssembly module: a header and nothing else. Not an OPA policy, and used only to be refused as one. */
const EMPTY_MODULE = Uint8Array.of(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00);

const input = (method: number, role = 'admin'): AuthorizationInput => ({
  request: { namespace: 'default', resource: 'flag', subject: 'flag', action: 'read', status: 'success' },
  authentication: { id: 'a1', method, metadata: { 'io.flipt.auth.role': role } },
});

test('flipt.is_auth_method compares the input method with the named one, as Flipt', (t) => {
  t.deepEqual(AUTH_METHOD_NUMBERS, { token: 1, oidc: 2, kubernetes: 3, k8s: 3, github: 4, jwt: 5 });
  t.true(isAuthMethod(input(5), 'jwt'));
  t.false(isAuthMethod(input(1), 'jwt'));
  t.true(isAuthMethod(input(3), 'k8s'));
  t.true(isAuthMethod(input(3), 'kubernetes'));
  t.true(isAuthMethod(input(4), 'github'));
  t.throws(() => isAuthMethod(input(5), 'saml'), { message: 'unsupported auth method saml' });
  t.throws(() => isAuthMethod({ request: {} }, 'jwt'), { message: 'no authentication found' });
  t.throws(() => isAuthMethod(input(5), 'toString'), { message: 'unsupported auth method toString' });
  // What opa-wasm's customBuiltins receives: the import name a compiled policy calls.
  t.deepEqual(Object.keys(FLIPT_BUILTINS), ['flipt.is_auth_method']);
  t.true(FLIPT_BUILTINS['flipt.is_auth_method']?.(input(2), 'oidc'));
});

test('bytes that are not WebAssembly are refused with an error naming the file', async (t) => {
  const err = await t.throwsAsync(loadWasmPolicy(new TextEncoder().encode('package flipt.authz.v1'), {}, { file: 'policies/policy.wasm' }), { instanceOf: PolicyFileError });
  t.regex(err?.message ?? '', /^policies\/policy\.wasm: not a WebAssembly module \(.+\); build it with `opa build -t wasm -e flipt\/authz\/v1\/allow -e flipt\/authz\/v1\/viewable_namespaces`$/);
});

test('a WebAssembly module that OPA did not compile is refused before opa-wasm sees it', async (t) => {
  const err = await t.throwsAsync(loadWasmPolicy(EMPTY_MODULE), { instanceOf: PolicyFileError });
  t.is(
    err?.message,
    'policy.wasm: a WebAssembly module, but not a policy compiled by OPA (it lacks opa_wasm_abi_version, builtins, entrypoints, opa_heap_ptr_get, opa_heap_ptr_set); ' +
      'build it with `opa build -t wasm -e flipt/authz/v1/allow -e flipt/authz/v1/viewable_namespaces`',
  );
});

/**
 * A stand-in for opa-wasm's LoadedPolicy, the JavaScript object (not a WebAssembly module): fixed
 * result sets per entrypoint id, to check how WasmPolicy reads them. It evaluates nothing.
 */
function standInLoaded(entrypoints: Record<string, number>, results: Record<number, unknown>): CompiledPolicy & { data: unknown; inputs: unknown[] } {
  return {
    entrypoints,
    data: undefined,
    inputs: [],
    evaluate(value: unknown, entrypoint: number | string): unknown {
      this.inputs.push(value);
      const result = results[entrypoint as number];
      if (result instanceof Error || typeof result === 'string') throw result;
      return result;
    },
    setData(data: object): void {
      this.data = data;
    },
  };
}

test('a policy without the allow entrypoint is refused, listing the ones it has', (t) => {
  const err = t.throws(() => new WasmPolicy(standInLoaded({ 'example/allow': 0 }, {}), {}, { file: 'bundle.tar.gz!/policy.wasm' }), { instanceOf: PolicyFileError });
  t.is(
    err?.message,
    'bundle.tar.gz!/policy.wasm: the policy has no entrypoint flipt/authz/v1/allow (it has: example/allow); build it with `opa build -t wasm -e flipt/authz/v1/allow -e flipt/authz/v1/viewable_namespaces`',
  );
  t.throws(() => new WasmPolicy(standInLoaded({ 'flipt/authz/v1/allow': 0 }, {}), {}, { viewableNamespacesEntrypoint: 'mine/viewable' }), { message: /no entrypoint mine\/viewable \(it has: flipt\/authz\/v1\/allow\)/ });
  t.throws(() => new WasmPolicy(standInLoaded({ 'flipt/authz/v1/allow': 0 }, {}), ['not', 'an', 'object']), { message: 'policy.wasm: its data must be a JSON object' });
});

test('result sets are read as Flipt reads them: only true allows, a missing viewable_namespaces entrypoint means every namespace', (t) => {
  const allowOnly = standInLoaded({ 'flipt/authz/v1/allow': 0 }, { 0: [{ result: true }] });
  const policy = new WasmPolicy(allowOnly, { roles: [] });
  t.deepEqual(allowOnly.data, { roles: [] });
  t.true(policy.allow(input(5)));
  t.deepEqual(allowOnly.inputs[0], input(5));
  t.is(policy.viewableNamespaces(input(5)), undefined);

  const both = (allow: unknown, viewable: unknown): WasmPolicy =>
    new WasmPolicy(standInLoaded({ 'flipt/authz/v1/allow': 3, 'flipt/authz/v1/viewable_namespaces': 7 }, { 3: allow, 7: viewable }));
  t.false(both([{ result: false }], []).allow(input(5)));
  t.false(both([], []).allow(input(5)), 'undefined denies');
  t.false(both([{ result: 'true' }], []).allow(input(5)));
  t.deepEqual(both([], [{ result: ['foo', 'bar'] }]).viewableNamespaces(input(5)), ['foo', 'bar']);
  t.deepEqual(both([], []).viewableNamespaces(input(5)), [], 'defined in the module, no result: nothing');
  t.deepEqual(both([], [{ result: ['a'] }]).entrypoints, ['flipt/authz/v1/allow', 'flipt/authz/v1/viewable_namespaces']);
});

test('an evaluation that fails (a builtin refusing, an abort) is Unavailable and counted', (t) => {
  const policy = new WasmPolicy(
    standInLoaded({ 'flipt/authz/v1/allow': 0, 'flipt/authz/v1/viewable_namespaces': 1 }, { 0: new Error('unsupported auth method saml'), 1: [{ result: { foo: true } }] }),
    {},
    { file: 'authz.wasm' },
  );
  const err = t.throws(() => policy.allow(input(5)));
  t.true(isAppError(err) && err.code === Code.Unavailable);
  t.is(err?.message, 'authorization policy authz.wasm failed to evaluate allow: unsupported auth method saml');
  t.throws(() => policy.viewableNamespaces(input(5)), { message: 'authorization policy authz.wasm viewable_namespaces gave object, not an array' });
  t.is(policy.failures, 2);
});

async function bundle(t: { teardown(fn: () => Promise<void>): void }, files: Record<string, string | Uint8Array>): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-bundle-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, 'src', path, '..'), { recursive: true });
    await writeFile(join(dir, 'src', path), content);
  }
  await createTar({ gzip: true, cwd: join(dir, 'src'), file: join(dir, 'bundle.tar.gz') }, Object.keys(files));
  return readFile(join(dir, 'bundle.tar.gz'));
}

test('an OPA bundle gives its module bytes and its data documents merged at their directories', async (t) => {
  const bytes = await bundle(t, {
    'policy.wasm': EMPTY_MODULE,
    'data.json': '{"roles": [{"name": "admin", "rules": []}]}',
    'teams/eu/data.json': '{"members": ["ana"]}',
    '.manifest': '{"revision": "7", "roots": [""], "wasm": [{"entrypoint": "flipt/authz/v1/allow", "module": "/policy.wasm"}]}',
    'policy.rego': 'package flipt.authz.v1',
  });
  const read = await readOpaBundle(bytes, 'bundle.tar.gz');
  t.deepEqual([...read.wasm], [...EMPTY_MODULE]);
  t.is(read.wasmPath, '/policy.wasm');
  t.deepEqual(read.data, { roles: [{ name: 'admin', rules: [] }], teams: { eu: { members: ['ana'] } } });
});

test('a bundle without a module, with bad data, or not a bundle at all is refused naming the file', async (t) => {
  const noModule = await bundle(t, { 'policy.rego': 'package flipt.authz.v1' });
  t.is((await t.throwsAsync(readOpaBundle(noModule, 'b.tar.gz')))?.message, 'b.tar.gz: the bundle has no /policy.wasm: build it with `opa build -t wasm -e flipt/authz/v1/allow -e flipt/authz/v1/viewable_namespaces`');
  const badData = await bundle(t, { 'policy.wasm': EMPTY_MODULE, 'data.json': '{\n  "roles": [,]\n}' });
  t.is((await t.throwsAsync(readOpaBundle(badData, 'b.tar.gz')))?.message, "b.tar.gz!/data.json:2: invalid JSON: expected a value, found ','");
  const text = new TextEncoder().encode('package flipt.authz.v1\n');
  t.regex((await t.throwsAsync(readOpaBundle(text, 'b.tar.gz'), { instanceOf: PolicyFileError }))?.message ?? '', /^b\.tar\.gz: not a readable OPA bundle \(\.tar\.gz\): /);
  // The module inside is checked by the loader, named by its place in the bundle.
  const read = await readOpaBundle(await bundle(t, { 'policy.wasm': EMPTY_MODULE }), 'b.tar.gz');
  t.regex((await t.throwsAsync(loadWasmPolicy(read.wasm, read.data, { file: `b.tar.gz!${read.wasmPath}` })))?.message ?? '', /^b\.tar\.gz!\/policy\.wasm: a WebAssembly module, but not a policy compiled by OPA/);
});
