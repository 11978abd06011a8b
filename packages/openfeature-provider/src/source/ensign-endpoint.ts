/**
 * Where a provider reaches Ensign: the base URL, the credential and the keep-alive agent it shares
 * with every other provider of the same origin (see shared-connections.ts), and plain requests over
 * it. node:http rather than fetch, so that polls and count batches of every namespace reuse the
 * same sockets and a stream's socket can be given TCP keep-alive.
 */
import { type Agent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface EnsignEndpoint {
  /** The base URL without a trailing slash. */
  readonly base: string;
  readonly token: string | undefined;
  readonly agent: Agent;
}

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** How long the request may go without progress. */
  timeoutMs: number;
}

/** Starts a request to `path` below the endpoint, with its credential. */
export function startRequest(endpoint: EnsignEndpoint, path: string, options: Omit<RequestOptions, 'timeoutMs'>, onResponse: (res: IncomingMessage) => void): ClientRequest {
  const url = new URL(endpoint.base + path);
  const headers: Record<string, string> = { ...options.headers };
  if (endpoint.token !== undefined) headers.Authorization = `Bearer ${endpoint.token}`;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(options.body));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const req = send(url, { method: options.method ?? 'GET', headers, agent: endpoint.agent }, onResponse);
  if (options.body !== undefined) req.end(options.body);
  else req.end();
  return req;
}

/** One request and its whole answer; rejects on a network failure or a timeout. */
export function sendRequest(endpoint: EnsignEndpoint, path: string, options: RequestOptions): Promise<HttpReply> {
  return attempt(endpoint, path, options).catch((err: Error & { reusedSocket?: boolean }) => {
    // A kept-alive socket the server closed as it was reused fails at once: Node's advice is to
    // send again. Polls are reads and count batches are stored once by their id, so it is safe.
    if (err.reusedSocket === true) return attempt(endpoint, path, options);
    throw err;
  });
}

function attempt(endpoint: EnsignEndpoint, path: string, options: RequestOptions): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = startRequest(endpoint, path, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.once('error', reject);
    });
    req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`no answer from ${endpoint.base} within ${options.timeoutMs} ms`)));
    req.once('error', (err: Error & { reusedSocket?: boolean; code?: string }) => {
      if (req.reusedSocket && err.code === 'ECONNRESET') err.reusedSocket = true;
      reject(err);
    });
  });
}
