/**
 * Runs HTTP fuzz cases one after another against the fuzzed server and collects what went wrong:
 * a server error, no answer in time, an unbounded message, or the process gone.
 */
import { METHODS } from 'node:http';
import { BODY_LIMIT_BYTES, type FuzzServer } from './fuzz-server.js';
import { type HttpCase, httpCase } from './http-cases.js';
import type { HttpRoute } from './http-routes.js';
import { answered, sendHttpCase } from './http-send.js';
import { httpFault } from './http-verdict.js';
import { FuzzRandom } from './random.js';

export interface HttpRun {
  seed: number;
  indexes: readonly number[];
  /** Cases that may be valid (else every case is invalid by construction). */
  valid: boolean;
  deadlineMs: number;
  /** How to replay a case, for the report. */
  replay: (index: number) => string;
}

/** Node's limit on a request's line and headers (`--max-http-header-size`). */
const HEAD_LIMIT_BYTES = 16 * 1024;

/**
 * A request the server may refuse by closing the connection while it is still being sent (Node
 * does so past its header limit and for a method its parser does not know, and after a 413): the
 * client then sees a reset, not the answer.
 */
const closesEarly = (c: HttpCase): boolean =>
  c.target.length + JSON.stringify(c.headers).length > HEAD_LIMIT_BYTES - 512 || !METHODS.includes(c.method) || (c.body?.length ?? 0) > BODY_LIMIT_BYTES;

/** Failures are reported up to this many; the run stops there. */
const MOST_FAILURES = 5;

const shown = (c: HttpCase): string =>
  `${c.method} ${c.target.slice(0, 300)}${c.target.length > 300 ? `… (${c.target.length})` : ''} headers ${JSON.stringify(c.headers).slice(0, 400)} body ${c.body === undefined ? 'none' : `${c.body.length} bytes: ${c.body.subarray(0, 200).toString('utf8')}`}`;

export interface HttpRunResult {
  failures: string[];
  /** The longest any case took to be answered, in ms. */
  slowestMs: number;
}

export async function runHttpCases(server: FuzzServer, routes: readonly HttpRoute[], run: HttpRun): Promise<HttpRunResult> {
  let exit: number | undefined;
  void server.process.exited.then((code) => (exit = code));
  const failures: string[] = [];
  let slowestMs = 0;
  for (const index of run.indexes) {
    const rng = FuzzRandom.forCase(run.seed, index);
    const route = routes[index % routes.length] as HttpRoute;
    const c = httpCase(rng, route, { token: server.token, known: server.known, bodyLimitBytes: BODY_LIMIT_BYTES }, run.valid);
    const outcome = await sendHttpCase(server.process.port, run.deadlineMs, c);
    slowestMs = Math.max(slowestMs, outcome.ms);
    const fault = answered(outcome) ? httpFault(outcome, c.method) : closesEarly(c) && /ECONNRESET|EPIPE/.test(outcome.failure) ? undefined : outcome.failure;
    if (fault !== undefined || exit !== undefined) {
      const text = answered(outcome) ? outcome.text.slice(0, 600) : '';
      const logs = server.process.logs().slice(-3_000);
      const gone = exit === undefined ? (fault?.startsWith('HTTP 5') ? `\n  the server's log ends:\n${logs}` : '') : `; the server exited with ${exit}:\n${logs}`;
      failures.push(`case ${index} (${route.method} ${route.path}): ${fault ?? 'the server is gone'} ${text}\n  ${shown(c)}\n  ${run.replay(index)}${gone}`);
      if (failures.length >= MOST_FAILURES || exit !== undefined) break;
    }
    if (run.valid && route.path.startsWith('/auth/v1')) await server.renewToken();
  }
  return { failures, slowestMs };
}
