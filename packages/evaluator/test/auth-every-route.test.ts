/**
 * A namespace-scoped token against every route the evaluation handler serves (the handler's own
 * route list, not a hand-picked one). It is accepted exactly where every namespace the request
 * names is its own (the path's, else the body's `namespaceKey`, `""` being `default`, every batch
 * item included) and refused with 401 everywhere else and on OFREP; without a credential every
 * route answers 401; an unscoped token is accepted everywhere.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { digestOf, type DigestEntry } from '@ensign/auth';
import { pino } from 'pino';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import { createEvaluationHandler, type EvaluationHandler } from '../src/evaluation-handler.js';
import { FIXED_NOW } from './helpers/server.js';

const UNAUTHENTICATED = 'request was not authenticated';
/** The two namespaces the ready source holds; each scoped token's rival is the other one. */
const NAMESPACES = ['default', 'other'] as const;
/** Routes served today (GET routes also answer HEAD, which is not counted here). */
const ROUTES_TODAY = 15;

/** How a route reads the namespaces a request touches. */
type Kind =
  | 'body' // one evaluation: the body's `namespaceKey`
  | 'batch' // `/evaluate/v1/batch`: every item's `namespaceKey`
  | 'legacy-batch' // the batch's `namespaceKey`, and every item that names its own
  | 'path' // the path's namespace, whatever the body says
  | 'path-batch' // the path's namespace for the batch and its items
  | 'ofrep' // no namespace notion a scoped token may use
  | 'stream' // the snapshot stream: the path's namespace (after its environment)
  | 'ofrep-stream'; // OFREP's change events: OFREP, so no scoped token

/** Every route pattern the rules know; a route matching none fails the test (nothing is skipped). */
const KINDS: ReadonlyArray<readonly [RegExp, Kind]> = [
  [/^\/evaluate\/v1\/(variant|boolean)$/, 'body'],
  [/^\/api\/v1\/evaluate$/, 'body'],
  [/^\/evaluate\/v1\/batch$/, 'batch'],
  [/^\/api\/v1\/batch-evaluate$/, 'legacy-batch'],
  [/^\/evaluate\/v1\/namespaces\/\{\w+\}\/(variant|boolean)$/, 'path'],
  [/^\/api\/v1\/namespaces\/\{\w+\}\/evaluate$/, 'path'],
  [/^\/internal\/v1\/evaluation\/snapshot\/namespace\/\{\w+\}$/, 'path'],
  [/^\/api\/v1\/namespaces\/\{\w+\}\/batch-evaluate$/, 'path-batch'],
  [/^\/ofrep\/v1\/(configuration|evaluate\/flags(\/\{\w+\})?)$/, 'ofrep'],
  [/^\/client\/v2\/environments\/\{\w+\}\/namespaces\/\{\w+\}\/stream$/, 'stream'],
  [/^\/ofrep\/v1\/_stream\/\{\w+\}\/\{\w+\}\/events$/, 'ofrep-stream'],
];

const kindOf = (path: string): Kind | undefined => KINDS.find(([pattern]) => pattern.test(path))?.[1];

/** One request and the namespaces it touches (`unscoped`: none a scoped token may use). */
interface Probe {
  label: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  touches: readonly string[] | 'unscoped';
}

const item = (namespaceKey?: string) => ({ flagKey: 'color', entityId: 'u1', context: { plan: 'pro' }, ...(namespaceKey === undefined ? {} : { namespaceKey }) });

/** `path` with its first parameter (the namespace, or OFREP's flag key) filled in. */
const fill = (path: string, value: string): string => path.replace(/\{\w+\}/, encodeURIComponent(value));

/** The requests that try route `path` of `kind` for a token of namespace `own` whose rival is `rival`. */
function probes(kind: Kind, method: string, path: string, own: string, rival: string): Probe[] {
  const body = method === 'POST';
  switch (kind) {
    case 'body':
      return [
        { label: 'own namespace in the body', path, body: item(own), touches: [own] },
        { label: 'rival namespace in the body', path, body: item(rival), touches: [rival] },
        { label: 'no namespace (default)', path, body: item(), touches: ['default'] },
      ];
    case 'batch':
      return [
        { label: 'every item in the own namespace', path, body: { requests: [item(own), item(own)] }, touches: [own] },
        { label: 'every item in the rival namespace', path, body: { requests: [item(rival)] }, touches: [rival] },
        { label: 'one item in the rival namespace', path, body: { requests: [item(own), item(rival)] }, touches: [own, rival] },
        { label: 'an item without a namespace (default)', path, body: { requests: [item(own), item()] }, touches: [own, 'default'] },
      ];
    case 'legacy-batch':
      return [
        { label: 'own batch namespace', path, body: { namespaceKey: own, requests: [item()] }, touches: [own] },
        { label: 'rival batch namespace', path, body: { namespaceKey: rival, requests: [item()] }, touches: [rival] },
        { label: 'an item naming the rival namespace', path, body: { namespaceKey: own, requests: [item(rival)] }, touches: [own, rival] },
        { label: 'no namespace (default)', path, body: { requests: [item()] }, touches: ['default'] },
      ];
    case 'path':
      return [
        { label: 'own namespace in the path', path: fill(path, own), ...(body ? { body: item() } : {}), touches: [own] },
        { label: 'rival namespace in the path', path: fill(path, rival), ...(body ? { body: item() } : {}), touches: [rival] },
        ...(body
          ? [
              { label: 'own path, rival body: the path wins', path: fill(path, own), body: item(rival), touches: [own] },
              { label: 'rival path, own body: the path wins', path: fill(path, rival), body: item(own), touches: [rival] },
            ]
          : []),
      ];
    case 'path-batch':
      return [
        { label: 'own namespace in the path', path: fill(path, own), body: { requests: [item()] }, touches: [own] },
        { label: 'rival namespace in the path', path: fill(path, rival), body: { requests: [item()] }, touches: [rival] },
        { label: 'own path, an item naming the rival', path: fill(path, own), body: { requests: [item(rival)] }, touches: [own, rival] },
      ];
    case 'stream':
      return [
        { label: 'own namespace in the path', path: fill(fill(path, 'default'), own), touches: [own] },
        { label: 'rival namespace in the path', path: fill(fill(path, 'default'), rival), touches: [rival] },
      ];
    case 'ofrep-stream':
      return [{ label: 'OFREP events of the own namespace', path: fill(fill(path, 'default'), own), headers: { Accept: 'text/event-stream' }, touches: 'unscoped' }];
    case 'ofrep':
      return [{ label: 'OFREP in the own namespace', path: fill(path, 'color'), ...(body ? { body: { context: { targetingKey: 'u1' } } } : {}), headers: { 'X-Flipt-Namespace': own }, touches: 'unscoped' }];
  }
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

async function serve(t: ExecutionContext, handler: EvaluationHandler): Promise<(method: string, path: string, body: unknown, headers: Record<string, string>) => Promise<Reply>> {
  const server = createServer((req, res) =>
    handler(req, res, () => {
      res.writeHead(418).end('next');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (method, path, body, headers) => {
    const res = await fetch(url + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    // An accepted stream stays open: its status is all there is to check.
    if (res.ok && isStream(path)) {
      await res.body?.cancel();
      return { status: res.status, headers: res.headers, text: '' };
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
}

const isStream = (path: string): boolean => /\/stream$|\/_stream\//.test(path);

/** The refusal's body: Flipt's error, OFREP's, or a stream's error frame. */
function refusalBody(path: string): unknown {
  if (path.startsWith('/ofrep/v1/_stream/')) return `data: {"code":16,"message":"${UNAUTHENTICATED}","type":"error"}\n\n`;
  if (isStream(path)) return { error: { code: 16, message: UNAUTHENTICATED, details: [] } };
  if (path.startsWith('/ofrep/')) return { errorCode: 'GENERAL', errorDetails: UNAUTHENTICATED };
  return { code: 16, message: UNAUTHENTICATED, details: [] };
}

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

test('a namespaced token is accepted on every evaluator route exactly where the request stays in its namespace', async (t) => {
  const tokens: Record<string, DigestEntry> = {
    'scoped-default': { method: 'METHOD_TOKEN', namespace: 'default' },
    'scoped-other': { method: 'METHOD_TOKEN', namespace: 'other' },
    admin: { method: 'METHOD_TOKEN' },
  };
  const digests = new Map(Object.entries(tokens).map(([token, entry]) => [digestOf(token), entry]));
  const handler = createEvaluationHandler({
    source: readySource(),
    logger: pino({ level: 'silent' }),
    now: () => FIXED_NOW,
    auth: { required: true, digests: () => digests, exclude: { management: false, evaluation: false, ofrep: false } },
  });
  const call = await serve(t, handler);

  // HEAD is served wherever GET is.
  const routes = handler.routes.flatMap(([method, path]) => (method === 'GET' ? [[method, path], ['HEAD', path]] : [[method, path]])) as Array<[string, string]>;
  t.true(handler.routes.length >= ROUTES_TODAY, `only ${handler.routes.length} routes enumerated`);
  const unclassified = routes.filter(([, path]) => kindOf(path) === undefined);
  t.deepEqual(unclassified, [], 'every route is classified');
  const kinds = new Set(routes.map(([, path]) => kindOf(path)));
  t.deepEqual([...kinds].sort(), ['batch', 'body', 'legacy-batch', 'ofrep', 'ofrep-stream', 'path', 'path-batch', 'stream'], 'every kind of route is enumerated');

  const what = (method: string, path: string, label: string, who: string, reply: Reply) => `${who} ${method} ${path} (${label}): HTTP ${reply.status} ${reply.text}`;
  const refused = (method: string, path: string, label: string, who: string, reply: Reply) => {
    const note = what(method, path, label, who, reply);
    t.is(reply.status, 401, note);
    if (method === 'HEAD') return;
    const expected = refusalBody(path);
    t.deepEqual(typeof expected === 'string' ? reply.text : JSON.parse(reply.text), expected, note);
  };
  // Accepted: past authentication and routed to its handler (which may still answer 4xx).
  const accepted = (method: string, path: string, label: string, who: string, reply: Reply) => {
    const note = what(method, path, label, who, reply);
    t.false(reply.status === 401 || reply.status === 403, note);
    t.false(reply.status === 418 || reply.status === 501, note);
    if (reply.status === 404 && method !== 'HEAD') t.notDeepEqual(JSON.parse(reply.text), { code: 5, message: 'Not Found', details: [] }, note);
  };

  let tried = 0;
  for (const [method, pattern] of routes) {
    const kind = kindOf(pattern) as Kind;
    for (const own of NAMESPACES) {
      const rival = NAMESPACES.find((ns) => ns !== own) as string;
      for (const probe of probes(kind, method, pattern, own, rival)) {
        const send = (headers: Record<string, string>) => call(method, probe.path, probe.body, { ...probe.headers, ...headers });
        const inOwn = probe.touches !== 'unscoped' && probe.touches.every((ns) => ns === own);
        const scoped = await send(bearer(`scoped-${own}`));
        (inOwn ? accepted : refused)(method, probe.path, probe.label, `token of ${own}`, scoped);
        refused(method, probe.path, probe.label, 'no credential', await send({}));
        accepted(method, probe.path, probe.label, 'unscoped token', await send(bearer('admin')));
        tried++;
      }
    }
  }
  t.true(tried >= routes.length * NAMESPACES.length, 'every route was tried with each token');
});
