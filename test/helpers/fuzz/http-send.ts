/**
 * Sends one HTTP case with node:http (which, unlike fetch, sends any method, path and header as
 * given) and waits for its answer within a deadline. Each case has a connection of its own, so no
 * case is answered (or reset) by what an earlier one did. A stream (Flipt v2's and OFREP's) is
 * answered once its headers arrive: it then waits for changes, so it is closed there.
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import type { HttpCase } from './http-cases.js';

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, at most 64 KiB of it. */
  text: string;
  ms: number;
}

/** Neither an answer nor a refusal in time: what the case failed with. */
export interface HttpNoAnswer {
  failure: string;
  ms: number;
}

const KEPT = 64 * 1024;
/** The stream routes' patterns. */
const STREAM_ROUTE = /\/(stream|events)$/;

export function sendHttpCase(port: number, deadlineMs: number, c: HttpCase): Promise<HttpAnswer | HttpNoAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    let settled = false;
    const settle = (outcome: HttpAnswer | HttpNoAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const headers = { ...c.headers, ...(c.body === undefined ? {} : { 'content-length': String(c.body.length) }) };
    const req = request({ host: '127.0.0.1', port, method: c.method, path: c.target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => settle({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ms: ms() });
      if (res.statusCode === 200 && STREAM_ROUTE.test(c.route.path) && res.headers['content-length'] === undefined) {
        done();
        req.destroy();
        return;
      }
      res.on('data', (chunk: Buffer) => {
        if (size < KEPT) chunks.push(chunk);
        size += chunk.length;
      });
      res.once('end', done);
      res.once('error', done);
      res.once('close', done);
    });
    const timer = setTimeout(() => {
      settle({ failure: `no answer within ${deadlineMs} ms`, ms: ms() });
      req.destroy();
    }, deadlineMs);
    req.once('error', (err: NodeJS.ErrnoException) => settle({ failure: `connection failed: ${err.code ?? ''} ${err.message}`, ms: ms() }));
    req.end(c.body);
  });
}

export const answered = (outcome: HttpAnswer | HttpNoAnswer): outcome is HttpAnswer => 'status' in outcome;
