/**
 * Authorization over every management route the app registers (read from its routers, not a
 * hand-picked list): each route names its operation, and with Flipt's own example role data an
 * admin, an editor, a viewer, a namespaced viewer and a caller without a role are each let through
 * or refused (403 `permission denied`) as the roles say, whatever the route.
 */
import test from 'ava';
import { MANAGEMENT_OPERATIONS, type ManagementKind, type ManagementOperationName } from '@ensign/core';
import { FLIPT_EXAMPLE_ROLES } from '@ensign/testkit';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppState } from '../src/index.js';
import { type AuthorizedControlPlane, startAuthorized } from './authz-harness.js';

/** What each role of Flipt's example data may do, written from that data, independently of the engine. */
const MAY: Record<string, (kind: ManagementKind, namespace: string | undefined) => boolean> = {
  admin: () => true,
  editor: (kind) => kind.resource === 'flag' || kind.resource === 'segment' || kind.action === 'read',
  viewer: (kind) => kind.action === 'read',
  namespaced_viewer: (kind, namespace) => kind.action === 'read' && namespace === 'foo',
  none: () => false,
};

/** Routes outside authorization (Flipt's skip list, the ways to get a credential, and the evaluation surface's counts). */
const SKIPPED = /^\/(health|metrics|meta\/info|internal\/v1\/usage|api\/v1\/permissions|auth\/v1\/(method(\/(oidc\/[\w-]+|github|codehost)\/(authorize|callback)|\/kubernetes\/serviceaccount)?|self(\/expire)?|session))$/;

interface RegisteredRoute {
  method: string;
  path: string;
  operation: ManagementOperationName | undefined;
}

/** Every route of the app's routers with the operation its middleware names (HEAD left out). */
function registeredRoutes(app: Koa<AppState>): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: Router<AppState> }).router;
    for (const layer of router?.stack ?? []) {
      const named = layer.stack.find((fn) => typeof (fn as { operation?: unknown }).operation === 'string') as { operation?: ManagementOperationName } | undefined;
      for (const method of layer.methods) if (method !== 'HEAD') routes.push({ method, path: String(layer.path), operation: named?.operation });
    }
  }
  return routes;
}

let cp: AuthorizedControlPlane;
const tokens: Record<string, Record<string, string>> = {};
test.before(async () => {
  cp = await startAuthorized({ roles: FLIPT_EXAMPLE_ROLES });
  for (const role of Object.keys(MAY)) tokens[role] = await cp.tokenOf(role === 'none' ? undefined : role);
  const admin = tokens.admin as Record<string, string>;
  // Each namespace holds a flag, so no request below can delete it.
  for (const ns of ['foo', 'bar']) {
    for (const [path, body] of [['/api/v1/namespaces', { key: ns, name: ns }], [`/api/v1/namespaces/${ns}/flags`, { key: 'seeded', name: 'seeded' }]] as const) {
      const created = await cp.call('POST', path, body, admin);
      if (created.status !== 200) throw new Error(created.text);
    }
  }
});
test.after.always(() => cp?.close());

test('every management route names an operation; only the skipped routes do not', (t) => {
  const routes = registeredRoutes(cp.app);
  t.true(routes.length >= 70, `only ${routes.length} routes enumerated`);
  t.deepEqual(
    routes.filter((r) => r.operation === undefined && !SKIPPED.test(r.path)).map((r) => `${r.method} ${r.path}`),
    [],
    'a management route without an operation',
  );
  t.deepEqual(
    routes.filter((r) => r.operation !== undefined && SKIPPED.test(r.path)).map((r) => `${r.method} ${r.path}`),
    [],
  );
});

/** A route's path with its namespace set to `namespace` and every other parameter to `x`. */
const fill = (pattern: string, namespace: string): string =>
  pattern.replace(/\/namespaces\/:(namespaceKey|key)/, `/namespaces/${namespace}`).replace(/:\w+/g, 'x');

test('each role is let through or refused on every route as Flipt\'s example roles say', async (t) => {
  const routes = registeredRoutes(cp.app).filter((r): r is RegisteredRoute & { operation: ManagementOperationName } => r.operation !== undefined);
  for (const route of routes) {
    const legacy = route.path.startsWith('/api/v1/') && !route.path.startsWith('/api/v1/namespaces');
    for (const namespace of ['foo', 'bar']) {
      const write = route.method === 'POST' || route.method === 'PUT';
      let path = fill(route.path, namespace);
      if (legacy && !write) path += `?namespaceKey=${namespace}`;
      // Bodies that are refused after authorization (or name a namespace that does not exist), so nothing is changed.
      const body = write ? { namespaceKey: namespace, key: route.operation === 'CreateNamespace' ? namespace : '' } : undefined;
      const touches = route.operation === 'ListNamespaces' || route.path.startsWith('/auth/v1') ? (route.operation === 'ListNamespaces' ? undefined : 'default') : namespace;
      for (const [role, may] of Object.entries(MAY)) {
        const reply = await cp.call(route.method, path, body, tokens[role] as Record<string, string>);
        const allowed = route.operation === 'ListNamespaces' || MANAGEMENT_OPERATIONS[route.operation].every((kind) => may(kind, touches));
        const label = `${role} ${route.method} ${path} (${route.operation}): HTTP ${reply.status} ${reply.text}`;
        if (allowed) t.not(reply.status, 403, label);
        else {
          t.is(reply.status, 403, label);
          t.deepEqual(reply.json, { code: 7, message: 'permission denied', details: [] }, label);
        }
      }
    }
  }
});

test('listing namespaces is always allowed, and filtered (list and total) to what the role may view', async (t) => {
  const keys = async (role: string) => {
    const reply = await cp.call('GET', '/api/v1/namespaces', undefined, tokens[role] as Record<string, string>);
    t.is(reply.status, 200, reply.text);
    return { keys: (reply.json.namespaces as Array<{ key: string }>).map((n) => n.key).sort(), total: reply.json.totalCount };
  };
  t.deepEqual(await keys('admin'), { keys: ['bar', 'default', 'foo'], total: 3 });
  t.deepEqual(await keys('viewer'), { keys: ['bar', 'default', 'foo'], total: 3 });
  t.deepEqual(await keys('namespaced_viewer'), { keys: ['foo'], total: 1 });
  t.deepEqual(await keys('none'), { keys: [], total: 0 });
});

test('a refusal is heard with Flipt\'s input document, status denied, and changes nothing', async (t) => {
  const before = cp.denials.length;
  const reply = await cp.call('POST', '/api/v1/namespaces/foo/flags', { key: 'sneaky', name: 'sneaky', type: 'BOOLEAN_FLAG_TYPE' }, tokens.viewer as Record<string, string>);
  t.is(reply.status, 403);
  const denial = cp.denials[before];
  t.like(denial, { operation: { name: 'CreateFlag', namespace: 'foo' }, input: { request: { namespace: 'foo', resource: 'flag', subject: 'flag', action: 'create', status: 'denied' }, authentication: { method: 1, metadata: { 'io.flipt.auth.role': 'viewer' } } } });
  t.is((await cp.call('GET', '/api/v1/namespaces/foo/flags/sneaky', undefined, tokens.admin as Record<string, string>)).status, 404, 'nothing was written');
  const editor = await cp.call('POST', '/api/v1/namespaces/foo/flags', { key: 'allowed', name: 'allowed', type: 'BOOLEAN_FLAG_TYPE' }, tokens.editor as Record<string, string>);
  t.is(editor.status, 200, editor.text);
});

test('GET /api/v1/permissions says what each role may do in each namespace it may view', async (t) => {
  const of = async (role: string, query = '') => {
    const reply = await cp.call('GET', `/api/v1/permissions${query}`, undefined, tokens[role] as Record<string, string>);
    t.is(reply.status, 200, reply.text);
    return reply.json;
  };
  const all = ['create', 'read', 'update', 'delete'];
  // A role's `*` approves change requests, but never bypasses a namespace's change policy.
  t.deepEqual(await of('admin', '?namespace=foo'), { authorizationRequired: true, namespaces: { foo: { namespace: [...all, 'approve'], flag: all, segment: all } }, authentication: all });
  t.deepEqual(await of('editor', '?namespace=bar'), { authorizationRequired: true, namespaces: { bar: { namespace: ['read'], flag: all, segment: all } }, authentication: ['read'] });
  const viewer = await of('viewer');
  t.deepEqual(Object.keys(viewer.namespaces).sort(), ['bar', 'default', 'foo']);
  t.deepEqual(viewer.namespaces.default, { namespace: ['read'], flag: ['read'], segment: ['read'] });
  t.deepEqual(await of('namespaced_viewer'), { authorizationRequired: true, namespaces: { foo: { namespace: ['read'], flag: ['read'], segment: ['read'] } }, authentication: [] });
  t.deepEqual(await of('none'), { authorizationRequired: true, namespaces: {}, authentication: [] });
});
