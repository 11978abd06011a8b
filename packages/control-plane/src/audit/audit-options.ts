/** What the audit trail is configured with: Flipt's `audit` section, camelCase, durations in ms. */

/** One of Flipt's webhook templates: where to POST, the body template, fixed headers. */
export interface AuditWebhookTemplate {
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface AuditOptions {
  /** `audit.events`: `<noun>:<verb>` pairs, `["*:*"]` for everything. */
  events: string[];
  /** `audit.buffer`: flush when `capacity` events wait, or `flushPeriodMs` after the first one. */
  buffer: { capacity: number; flushPeriodMs: number };
  /** `audit.sinks.log`: append the events to this file. */
  log?: { file: string };
  /** `audit.sinks.webhook`: exactly one of `url` and `templates`. */
  webhook?: {
    url?: string;
    signingSecret?: string;
    templates?: AuditWebhookTemplate[];
    /** `max_backoff_duration`: total backoff before an event is given up (Flipt: 15 s). */
    maxBackoffMs: number;
    /** Ensign's: how long one request may take (default 10 s). */
    timeoutMs?: number;
  };
  /** Ensign's: events that may wait per sink before the oldest are dropped (default 10,000). */
  queueLimit?: number;
}

/** Flipt's defaults for `audit.events` and `audit.buffer` (capacity 2, flush period 2 minutes). */
export const AUDIT_DEFAULTS = { events: ['*:*'], buffer: { capacity: 2, flushPeriodMs: 120_000 }, maxBackoffMs: 15_000, queueLimit: 10_000 } as const;
