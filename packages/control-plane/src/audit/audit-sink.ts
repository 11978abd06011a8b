/** What the dispatcher needs of a destination of audit events. */
import type { AuditEvent } from './audit-event.js';

/** A destination that takes one event at a time, in order; the dispatcher retries what it rejects. */
export interface AuditSink {
  /** The `sink` label of the metrics and logs (`log`, `webhook`, `webhook.templates[0]`). */
  readonly name: string;
  /** Total backoff after which an event this sink keeps refusing is given up. */
  readonly maxBackoffMs: number;
  /** Resolves once the event is delivered; rejects otherwise. Must stop when `signal` aborts. */
  deliver(event: AuditEvent, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** A failure that retrying cannot fix (the event does not render), so the event is failed at once. */
export class UndeliverableError extends Error {
  override readonly name = 'UndeliverableError';
}
