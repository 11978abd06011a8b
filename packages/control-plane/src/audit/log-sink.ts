/**
 * Flipt's log sink with a file: one JSON line per event, appended.
 * COMPAT(flipt): internal/server/audit/log/log.go writes to a file with an encoder that omits the
 * time, level and message keys, so a line is the event alone, its fields in the order of
 * `Event.MarshalLogObject` (version, type, action, status, metadata, payload, timestamp).
 */
import { closeSync, mkdirSync, openSync, writeFile } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditEvent } from './audit-event.js';
import { AUDIT_DEFAULTS } from './audit-options.js';
import type { AuditSink } from './audit-sink.js';

/** The line Flipt's log sink writes for an event (zap does not HTML-escape), newline included. */
export function auditLogLine(event: AuditEvent): string {
  const { version, type, action, status, metadata, payload, timestamp, ensign } = event;
  return `${JSON.stringify({ version, type, action, status, metadata, payload, timestamp, ensign })}\n`;
}

export class LogSink implements AuditSink {
  readonly name = 'log';
  private readonly fd: number;
  private closed = false;
  private writing: Promise<void> = Promise.resolve();

  /** Opens `file` for appending now, creating its folder as Flipt does, so a bad path fails at start. */
  constructor(
    readonly file: string,
    readonly maxBackoffMs: number = AUDIT_DEFAULTS.maxBackoffMs,
  ) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      this.fd = openSync(file, 'a');
    } catch (err) {
      throw new Error(`audit log: cannot open ${file}: ${(err as Error).message}`, { cause: err });
    }
  }

  deliver(event: AuditEvent, signal: AbortSignal): Promise<void> {
    if (this.closed || signal.aborted) return Promise.reject(new Error(`audit log ${this.file} is closed`));
    // writeFile on a descriptor writes the whole line at the end of the file (append mode).
    this.writing = new Promise((resolve, reject) => writeFile(this.fd, auditLogLine(event), (err) => (err ? reject(err) : resolve())));
    return this.writing;
  }

  /** Closes the file once a write under way is done: a descriptor closed under it could be reused by another file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing.catch(() => undefined);
    closeSync(this.fd);
  }
}
