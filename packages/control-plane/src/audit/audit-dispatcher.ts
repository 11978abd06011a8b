/**
 * The audit trail: every committed change, turned into Flipt's audit event, filtered by
 * `audit.events`, buffered (Flipt's `audit.buffer`) and handed to each sink's own queue. Recording
 * is synchronous and never fails or waits: a slow or dead receiver costs its own queue, never a write.
 */
import type { ChangeRecord } from '@ensign/core';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Denial } from '@ensign/auth';
import { toAuditEvent } from './audit-event.js';
import { toDeniedAuditEvent } from './denied-event.js';
import { parseAuditEvents } from './audit-filter.js';
import { sinkMetrics } from './audit-metrics.js';
import { AUDIT_DEFAULTS, type AuditOptions } from './audit-options.js';
import { openSinks } from './open-sinks.js';
import { type AuditItem, SinkQueue } from './sink-queue.js';

export interface AuditDeps {
  logger: Logger;
  /** Where `ensign_audit_events_total` and `ensign_audit_queue_length` go; none, no metrics. */
  registry?: Registry;
  /** Stamps an event whose change carries no readable time. */
  now?: () => Date;
  fetch?: typeof fetch;
}

export interface AuditTrail {
  /** Takes a committed change; returns at once and never throws. */
  record(change: ChangeRecord): void;
  /** Takes a call authorization refused (a refused read is not audited); returns at once and never throws. */
  recordDenied(denial: Denial): void;
  /** Hands the buffered events to the sinks and resolves once every sink has settled them. */
  flush(): Promise<void>;
  /** Stops taking changes, flushes, waits for the sinks at most `timeoutMs`, then drops (and logs) the rest. */
  close(timeoutMs?: number): Promise<void>;
}

/** How long `close` waits for the sinks when not told. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

function checkBuffer({ capacity, flushPeriodMs }: AuditOptions['buffer']): void {
  if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`audit buffer: capacity must be a positive integer, not ${capacity}`);
  if (!(flushPeriodMs > 0)) throw new Error(`audit buffer: flush period must be positive, not ${flushPeriodMs} ms`);
}

/** Checks the options and opens the sinks (throwing on a mistake), and returns the trail. */
export function createAuditTrail(options: AuditOptions, deps: AuditDeps): AuditTrail {
  const filter = parseAuditEvents(options.events);
  checkBuffer(options.buffer);
  const { logger } = deps;
  const now = deps.now ?? (() => new Date());
  const sinks = openSinks(options, deps.fetch);
  const abort = new AbortController();
  const queues = sinks.map(
    (sink) => new SinkQueue({ sink, limit: options.queueLimit ?? AUDIT_DEFAULTS.queueLimit, logger, metrics: sinkMetrics(deps.registry, sink.name), signal: abort.signal }),
  );

  let buffer: AuditItem[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closing: Promise<void> | undefined;

  const flushBuffer = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    for (const queue of queues) queue.push(batch);
  };
  const settled = (): Promise<unknown> => Promise.all(queues.map((q) => q.idle()));
  /** Buffers an event the filter allows; a full buffer, or the flush period, hands it to the sinks. */
  const take = (item: AuditItem): void => {
    if (!filter.allows(item.event)) return;
    buffer.push(item);
    if (buffer.length >= options.buffer.capacity) {
      flushBuffer();
    } else if (timer === undefined) {
      // Unreferenced: a pending flush must not keep the process alive; `close` flushes it.
      timer = setTimeout(flushBuffer, options.buffer.flushPeriodMs);
      timer.unref();
    }
  };

  return {
    record(change) {
      if (queues.length === 0) return;
      try {
        if (closing !== undefined) {
          logger.warn({ namespaceKey: change.namespaceKey, resource: change.resource, key: change.key }, 'audit trail closed; change not recorded');
          return;
        }
        take({ event: toAuditEvent(change, now), namespaceKey: change.namespaceKey, key: change.key });
      } catch (err) {
        logger.error({ err, namespaceKey: change?.namespaceKey, resource: change?.resource, key: change?.key }, 'audit event not recorded');
      }
    },

    recordDenied(denial) {
      if (queues.length === 0 || closing !== undefined) return;
      try {
        const event = toDeniedAuditEvent(denial, now());
        if (event !== undefined) take({ event, namespaceKey: denial.input.request.namespace ?? '', key: '' });
      } catch (err) {
        logger.error({ err, operation: denial.operation.name }, 'audit event of a refusal not recorded');
      }
    },

    async flush() {
      flushBuffer();
      await settled();
    },

    close(timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS) {
      closing ??= (async () => {
        flushBuffer();
        let deadline: NodeJS.Timeout | undefined;
        await Promise.race([settled(), new Promise((resolve) => (deadline = setTimeout(resolve, timeoutMs)))]);
        clearTimeout(deadline);
        abort.abort();
        for (const queue of queues) queue.stop();
        await Promise.all(sinks.map((sink) => sink.close().catch((err: unknown) => logger.error({ err, sink: sink.name }, 'audit sink did not close'))));
      })();
      return closing;
    },
  };
}
