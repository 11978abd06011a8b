/** The audit sinks of `ensign server` from its `audit` configuration; none when no sink is enabled. */
import { type AuditOptions, type AuditTrail, createAuditTrail } from '@ensign/control-plane';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { EnsignConfig } from './config/config.schema.js';

export function auditOptionsOf(audit: EnsignConfig['audit']): AuditOptions | undefined {
  const { log, webhook } = audit.sinks;
  if (!log.enabled && !webhook.enabled) return undefined;
  return {
    events: audit.events,
    buffer: { capacity: audit.buffer.capacity, flushPeriodMs: audit.buffer.flush_period },
    ...(log.enabled ? { log: { file: log.file } } : {}),
    ...(webhook.enabled
      ? {
          webhook: {
            ...(webhook.url === '' ? { templates: webhook.templates } : { url: webhook.url }),
            ...(webhook.signing_secret === '' ? {} : { signingSecret: webhook.signing_secret }),
            maxBackoffMs: webhook.max_backoff_duration,
          },
        }
      : {}),
  };
}

/** The trail the store's commits are recorded into; undefined when no sink is enabled. A bad setting fails the start, named. */
export function openAuditTrail(config: EnsignConfig, logger: Logger, registry: Registry): AuditTrail | undefined {
  const options = auditOptionsOf(config.audit);
  if (options === undefined) return undefined;
  try {
    return createAuditTrail(options, { logger, registry });
  } catch (err) {
    throw new Error(`audit: ${(err as Error).message}`);
  }
}
