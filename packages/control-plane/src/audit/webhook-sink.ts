/**
 * Flipt's webhook sink: one `POST` per event. Either the event itself as JSON, signed with
 * `x-flipt-webhook-signature` when a secret is set (internal/server/audit/webhook/client.go), or,
 * one sink per entry of `templates`, a body rendered from a Go-style template with the entry's
 * headers (internal/server/audit/template/executer.go).
 */
import { createHmac } from 'node:crypto';
import type { AuditEvent } from './audit-event.js';
import { type AuditSink, UndeliverableError } from './audit-sink.js';
import { compileTemplate } from './audit-template.js';
import { goJson } from './go-json.js';

export const SIGNATURE_HEADER = 'x-flipt-webhook-signature';

/** How long one request may take before it counts as a failed attempt. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** One request: its body and headers for an event. */
type BuildRequest = (event: AuditEvent) => { body: string; headers: Headers };

export interface WebhookSinkOptions {
  name: string;
  url: string;
  maxBackoffMs: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Lowercase hex HMAC-SHA256 of the exact body bytes, Flipt's signature. */
export function signBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

function checkedUrl(url: string, name: string): string {
  try {
    new URL(url);
    return url;
  } catch {
    throw new Error(`audit webhook ${name}: "${url}" is not a URL`);
  }
}

export class WebhookSink implements AuditSink {
  readonly name: string;
  readonly maxBackoffMs: number;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  private constructor(
    options: WebhookSinkOptions,
    private readonly build: BuildRequest,
  ) {
    this.name = options.name;
    this.url = checkedUrl(options.url, options.name);
    this.maxBackoffMs = options.maxBackoffMs;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** The event as the body (Go's JSON bytes), signed when `signingSecret` is set. */
  static plain(options: WebhookSinkOptions & { signingSecret?: string }): WebhookSink {
    const secret = options.signingSecret;
    return new WebhookSink(options, (event) => {
      const body = goJson(event);
      const headers = new Headers({ 'Content-Type': 'application/json' });
      if (secret) headers.set(SIGNATURE_HEADER, signBody(secret, body));
      return { body, headers };
    });
  }

  /** A body rendered from `body` (checked now) with `headers`; Flipt neither signs nor templates these. */
  static templated(options: WebhookSinkOptions & { body?: string; headers?: Record<string, string> }): WebhookSink {
    let render: (event: AuditEvent) => string;
    try {
      render = compileTemplate(options.body ?? '');
    } catch (err) {
      throw new Error(`audit webhook ${options.name}: ${(err as Error).message}`);
    }
    return new WebhookSink(options, (event) => {
      let body: string;
      try {
        body = render(event);
        JSON.parse(body);
      } catch (err) {
        throw new UndeliverableError(`the template does not render valid JSON: ${(err as Error).message}`);
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(options.headers ?? {})) headers.append(name, value);
      // COMPAT(flipt): application/json is added unless the configured Content-Type already is one.
      if (!(headers.get('Content-Type') ?? '').startsWith('application/json')) headers.append('Content-Type', 'application/json');
      return { body, headers };
    });
  }

  async deliver(event: AuditEvent, signal: AbortSignal): Promise<void> {
    const { body, headers } = this.build(event);
    // Not AbortSignal.any([signal, AbortSignal.timeout()]): on Node 20 the timeout signal can be
    // garbage-collected before it fires, and a hanging receiver then holds the queue forever.
    const request = new AbortController();
    const stop = () => request.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(() => request.abort(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    try {
      if (signal.aborted) stop();
      const response = await this.fetch(this.url, { method: 'POST', headers, body, signal: request.signal });
      // Release the connection whatever the receiver answered; its body is not used.
      await response.body?.cancel().catch(() => undefined);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
  }

  async close(): Promise<void> {}
}
