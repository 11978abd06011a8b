/** A node:http server around the evaluation handler, and a small fetch client for it. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { pino } from 'pino';
import { createEvaluationHandler, type EvaluationHandler, type EvaluationHandlerOptions } from '../../src/evaluation-handler.js';

/** A parsed reply. */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A running test server. */
export interface TestServer {
  url: string;
  /** Sends `body` as JSON (a string is sent as is); `undefined` sends no body. */
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<Reply<T>>;
  server: Server;
  handler: EvaluationHandler;
}

/** A fixed clock: 2025-01-01T00:00:00.123Z. */
export const FIXED_NOW = Date.parse('2025-01-01T00:00:00.123Z');

/**
 * Starts the handler on a free port; requests it hands on answer 418 `next`. The server is
 * closed when the test ends.
 */
export async function startServer(t: ExecutionContext<unknown>, options: Partial<EvaluationHandlerOptions> & Pick<EvaluationHandlerOptions, 'source'>): Promise<TestServer> {
  const handler = createEvaluationHandler({ logger: pino({ level: 'silent' }), now: () => FIXED_NOW, ...options });
  const server = createServer((req, res) =>
    handler(req, res, () => {
      res.writeHead(418, { 'Content-Type': 'text/plain' });
      res.end('next');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> => {
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const res = await fetch(`${url}${path}`, init);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return {
    url,
    server,
    handler,
    request,
    post: (path, body, headers) => request('POST', path, body, headers),
    get: (path, headers) => request('GET', path, undefined, headers),
  };
}

/** RFC 3339 in UTC. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** A UUID. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Asserts Flipt's error body with its status. */
export function assertError(t: ExecutionContext<unknown>, reply: Reply, status: number, code: number, message: string | RegExp): void {
  const note = `HTTP ${reply.status} ${reply.text}`;
  t.is(reply.status, status, note);
  t.is(reply.headers.get('content-type'), 'application/json', note);
  t.deepEqual(Object.keys(reply.body ?? {}).sort(), ['code', 'details', 'message'], note);
  t.is(reply.body.code, code, note);
  t.deepEqual(reply.body.details, [], note);
  if (typeof message === 'string') t.is(reply.body.message, message, note);
  else t.regex(String(reply.body.message), message, note);
}
