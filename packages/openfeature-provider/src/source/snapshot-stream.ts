/**
 * One connection to Ensign's snapshot stream (Flipt v2's NDJSON stream, in Ensign's format): the
 * current snapshot unless the digest held is still current, then one message per change. The
 * server writes nothing else, so a dead peer is noticed by TCP keep-alive on the socket and by the
 * feed's poll; only the answer's head has a deadline.
 */
import type { ClientRequest } from 'node:http';
import { type EnsignEndpoint, startRequest } from './ensign-endpoint.js';
import { NdjsonLines } from './ndjson-lines.js';

export interface StreamEvents {
  /** The server answered 200: messages follow. */
  opened(): void;
  /** The server answered another status (its body, read in full); the stream is over. */
  refused(status: number, body: string): void;
  /** One line of the body. */
  message(line: string): void;
  /** The stream ended or failed after `opened`, or failed before any answer; called once, last. */
  closed(error: Error | undefined): void;
}

const KEEP_ALIVE_MS = 15_000;

/** Only a digest the server could have made is sent (a bootstrap's may be anything). */
const DIGEST = /^[0-9a-f]{40}$/;

export const streamPath = (namespaceKey: string, digest: string | undefined): string =>
  `/client/v2/environments/default/namespaces/${encodeURIComponent(namespaceKey)}/stream?format=ensign${digest !== undefined && DIGEST.test(digest) ? `&digest=${digest}` : ''}`;

export class SnapshotStream {
  private readonly req: ClientRequest;
  private done = false;

  constructor(endpoint: EnsignEndpoint, namespaceKey: string, digest: string | undefined, headTimeoutMs: number, events: StreamEvents) {
    const headDeadline = setTimeout(() => this.req.destroy(new Error(`the stream did not answer within ${headTimeoutMs} ms`)), headTimeoutMs);
    this.req = startRequest(endpoint, streamPath(namespaceKey, digest), { headers: { Accept: 'application/json', 'X-Flipt-Accept-Server-Version': '1.61.0' } }, (res) => {
      clearTimeout(headDeadline);
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (chunk: string) => (body += chunk));
        res.once('end', () => this.finish(() => events.refused(res.statusCode ?? 0, body)));
        return;
      }
      events.opened();
      const lines = new NdjsonLines((line) => {
        if (!this.done) events.message(line);
      });
      res.on('data', (chunk: string) => lines.push(chunk));
      res.once('end', () => this.finish(() => events.closed(new Error('the server ended the stream'))));
      res.once('error', (err) => this.finish(() => events.closed(err)));
      res.once('close', () => this.finish(() => events.closed(new Error('the stream was cut'))));
    });
    this.req.on('socket', (socket) => socket.setKeepAlive(true, KEEP_ALIVE_MS));
    this.req.once('error', (err) => {
      clearTimeout(headDeadline);
      this.finish(() => events.closed(err));
    });
    this.req.once('close', () => clearTimeout(headDeadline));
  }

  /** Ends the stream; no event follows. */
  close(): void {
    this.done = true;
    this.req.destroy();
  }

  private finish(report: () => void): void {
    if (this.done) return;
    this.done = true;
    this.req.destroy();
    report();
  }
}
