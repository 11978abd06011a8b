import test from 'ava';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code, isAppError, type AuthorizationInput } from '@ensign/core';
import { OpaDecisionApi } from '../../src/index.js';

/**
 * A LOCAL STAND-IN for an Open Policy Agent's decision API (POST /v1/data/<path> with {input} →
 * {result}), on 127.0.0.1: each test sets how it answers. It evaluates no Rego; it only lets the
 * client's handling of OPA's answers and failures be checked.
 */
interface Seen {
  path: string;
  authorization: string | undefined;
  body: unknown;
}

type Answer = { status?: number; body: string } | 'hang';

async function standInOpa(answer: (path: string, body: { input?: AuthorizationInput }) => Answer): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as { input?: AuthorizationInput };
      seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const reply = answer(req.url ?? '', body);
      if (reply === 'hang') return; // never answers: the client's timeout must fire
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const input = (role: string): AuthorizationInput => ({
  request: { namespace: 'default', resource: 'flag', subject: 'flag', action: 'read', status: 'success' },
  authentication: { id: 'a1', method: 5, metadata: { 'io.flipt.auth.role': role, 'io.flipt.auth.email': 'secret-person@example.com' } },
});

test('asks allow and viewable_namespaces at their paths with {input}, and reads {result}', async (t) => {
  const opa = await standInOpa((path, body) => {
    const role = body.input?.authentication.metadata['io.flipt.auth.role'];
    if (path === '/v1/data/flipt/authz/v1/allow') return { body: JSON.stringify(role === 'admin' ? { result: true } : role === 'odd' ? { result: 'yes' } : role === 'none' ? {} : { result: false }) };
    if (path === '/v1/data/flipt/authz/v1/viewable_namespaces') return { body: JSON.stringify(role === 'admin' ? {} : { result: ['foo', 'bar'] }) };
    return { status: 404, body: '{}' };
  });
  t.teardown(() => closeServer(opa.server));
  const api = new OpaDecisionApi({ url: `${opa.url}/`, token: 'opa-token' });
  t.true(await api.allow(input('admin')));
  t.false(await api.allow(input('viewer')));
  t.false(await api.allow(input('none')), 'an undefined result denies');
  t.false(await api.allow(input('odd')), 'only a true result allows');
  t.is(await api.viewableNamespaces(input('admin')), undefined, 'a missing result: the rule is not defined');
  t.deepEqual(await api.viewableNamespaces(input('viewer')), ['foo', 'bar']);
  t.deepEqual(opa.seen[0], { path: '/v1/data/flipt/authz/v1/allow', authorization: 'Bearer opa-token', body: { input: input('admin') } });
  t.is(api.failures, 0);
});

test('an OPA that does not answer in time makes the decision fail as Unavailable', async (t) => {
  const opa = await standInOpa(() => 'hang');
  t.teardown(() => closeServer(opa.server));
  const api = new OpaDecisionApi({ url: opa.url, timeoutMs: 50 });
  const err = await t.throwsAsync(api.allow(input('admin')));
  t.true(isAppError(err) && err.code === Code.Unavailable && err.httpStatus === 503);
  t.is(err?.message, `authorization policy unavailable: OPA at ${opa.url} did not answer within 50 ms`);
  t.is(api.failures, 1);
});

test('a refused connection, a non-2xx answer and a body that is not JSON are Unavailable, named by URL and never carrying the input', async (t) => {
  const opa = await standInOpa((path) => (path.endsWith('/allow') ? { status: 500, body: '{"code":"internal_error","message":"secret-person@example.com"}' } : { body: '<html>' }));
  const api = new OpaDecisionApi({ url: opa.url });
  const non2xx = await t.throwsAsync(api.allow(input('admin')));
  t.is(non2xx?.message, `authorization policy unavailable: OPA at ${opa.url} answered HTTP 500`);
  const notJson = await t.throwsAsync(api.viewableNamespaces(input('admin')));
  t.is(notJson?.message, `authorization policy unavailable: OPA at ${opa.url} answered with a body that is not JSON`);
  await closeServer(opa.server);

  const refused = await t.throwsAsync(api.allow(input('admin')));
  t.true(isAppError(refused) && refused.code === Code.Unavailable);
  t.is(refused?.message, `authorization policy unavailable: OPA at ${opa.url} refused the connection`);
  for (const err of [non2xx, notJson, refused]) t.false(err?.message.includes('secret-person') ?? true);
  t.is(api.failures, 3);
});

test('a viewable_namespaces result that is not an array is a failure; credentials in the URL are sent as Basic and kept out of messages', async (t) => {
  const opa = await standInOpa(() => ({ body: '{"result": {"foo": true}}' }));
  t.teardown(() => closeServer(opa.server));
  const api = new OpaDecisionApi({ url: opa.url.replace('http://', 'http://user:pw@') });
  const err = await t.throwsAsync(api.viewableNamespaces(input('admin')));
  t.is(err?.message, `authorization policy unavailable: OPA at ${opa.url} answered viewable_namespaces with an object, not an array`);
  t.is(api.failures, 1);
  t.is(opa.seen[0]?.authorization, `Basic ${Buffer.from('user:pw').toString('base64')}`);
  t.throws(() => new OpaDecisionApi({ url: 'file:///etc/opa' }), { message: 'OPA url must be http or https, not file:' });
});
