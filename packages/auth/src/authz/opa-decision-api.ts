/**
 * An Open Policy Agent the operator runs, asked over its REST decision API: exact Rego semantics for
 * any Flipt policy (the operator loads the same policy.rego and data.json into it). An OPA that
 * cannot answer makes the decision fail (Unavailable), which the caller turns into a denial.
 */
import { AppError, Code, type AuthorizationInput } from '@ensign/core';
import type { PolicyEngine } from './policy-engine.js';

/** Where the operator's OPA is and how to reach it. */
export interface OpaDecisionApiOptions {
  /** OPA's base URL, e.g. `http://127.0.0.1:8181`. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` (OPA's `--authentication=token`). */
  token?: string;
  /** Per decision; default 1000 ms. */
  timeoutMs?: number;
}

/** A decision waits this long before the caller is denied: an authorization check must not hang a request. */
export const DEFAULT_OPA_TIMEOUT_MS = 1000;

const ALLOW_PATH = '/v1/data/flipt/authz/v1/allow';
const VIEWABLE_PATH = '/v1/data/flipt/authz/v1/viewable_namespaces';

/** Asks an OPA for each decision; every failure is an Unavailable rejection, and counted. */
export class OpaDecisionApi implements PolicyEngine {
  /** Decisions that failed (timeout, refused, non-2xx, bad body): read by a metric. */
  failures = 0;
  private readonly base: string;
  /** The base URL, without credentials: as errors and the health status show it. */
  readonly displayUrl: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(options: OpaDecisionApiOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`OPA url must be http or https, not ${url.protocol}`);
    this.headers = { 'content-type': 'application/json', accept: 'application/json' };
    // fetch refuses URLs with credentials: they become a Basic header (for a proxy in front of OPA).
    if (url.username !== '' || url.password !== '') {
      const basic = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      this.headers['authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    if (options.token !== undefined && options.token !== '') this.headers['authorization'] = `Bearer ${options.token}`;
    this.base = url.href.replace(/\/+$/, '');
    this.displayUrl = this.base;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_OPA_TIMEOUT_MS;
  }

  /** `data.flipt.authz.v1.allow`: only a `true` result allows (undefined or anything else denies, as Flipt). */
  async allow(input: AuthorizationInput): Promise<boolean> {
    const { result } = await this.decide(ALLOW_PATH, input);
    return result === true;
  }

  /** `data.flipt.authz.v1.viewable_namespaces`: undefined when the policy does not define it. */
  async viewableNamespaces(input: AuthorizationInput): Promise<readonly string[] | undefined> {
    const { result, defined } = await this.decide(VIEWABLE_PATH, input);
    if (!defined) return undefined;
    if (!Array.isArray(result)) throw this.failure(`answered viewable_namespaces with ${typeName(result)}, not an array`);
    return result.map((ns) => (typeof ns === 'string' ? ns : JSON.stringify(ns)));
  }

  private async decide(path: string, input: AuthorizationInput): Promise<{ result: unknown; defined: boolean }> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const body = JSON.stringify({ input });
    let response: Response | undefined;
    // A pooled keep-alive connection an OPA restart closed fails at once: one retry on a fresh one
    // (a decision query changes nothing, so asking twice is harmless).
    for (let attempt = 0; response === undefined; attempt++) {
      try {
        response = await fetch(this.base + path, { method: 'POST', headers: this.headers, body, signal });
      } catch (err) {
        if (attempt > 0 || !isStaleConnection(err)) throw this.failure(describeFetchError(err, this.timeoutMs), err);
      }
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      throw this.failure(describeFetchError(err, this.timeoutMs), err);
    }
    if (!response.ok) throw this.failure(`answered HTTP ${response.status}`);
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw this.failure('answered with a body that is not JSON');
    }
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw this.failure('answered with JSON that is not an object');
    const defined = Object.hasOwn(answer, 'result');
    return { result: defined ? (answer as { result: unknown }).result : undefined, defined };
  }

  private failure(what: string, cause?: unknown): AppError {
    this.failures++;
    return new AppError(Code.Unavailable, `authorization policy unavailable: OPA at ${this.displayUrl} ${what}`, { cause });
  }
}

const STALE_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function isStaleConnection(err: unknown): boolean {
  const code = err instanceof Error ? (err.cause as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' && STALE_CODES.has(code);
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `did not answer within ${timeoutMs} ms`;
  const cause = err instanceof Error ? (err.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause?.code === 'ECONNREFUSED') return 'refused the connection';
  if (typeof cause?.code === 'string') return `could not be reached (${cause.code})`;
  return `could not be reached (${err instanceof Error ? err.message : String(err)})`;
}

const typeName = (value: unknown): string => (value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);
