/** The sinks an audit configuration names, checked and opened at start so that mistakes fail early. */
import type { AuditOptions } from './audit-options.js';
import type { AuditSink } from './audit-sink.js';
import { LogSink } from './log-sink.js';
import { WebhookSink } from './webhook-sink.js';

/** Webhook sinks first (they only check), then the log file (which opens it). */
export function openSinks(options: AuditOptions, fetchImpl: typeof fetch | undefined): AuditSink[] {
  const sinks: AuditSink[] = [];
  const webhook = options.webhook;
  if (webhook !== undefined) {
    const templates = webhook.templates ?? [];
    const url = webhook.url ?? '';
    // COMPAT(flipt): internal/config/audit.go accepts exactly one of url and templates.
    if (url !== '' && templates.length > 0) throw new Error('audit webhook: set url or templates, not both');
    if (url === '' && templates.length === 0) throw new Error('audit webhook: url or templates required');
    const common = { maxBackoffMs: webhook.maxBackoffMs, timeoutMs: webhook.timeoutMs, fetch: fetchImpl };
    if (url !== '') sinks.push(WebhookSink.plain({ ...common, name: 'webhook', url, signingSecret: webhook.signingSecret }));
    for (const [i, t] of templates.entries()) sinks.push(WebhookSink.templated({ ...common, name: `webhook.templates[${i}]`, url: t.url, body: t.body, headers: t.headers }));
  }
  if (options.log !== undefined) sinks.push(new LogSink(options.log.file));
  return sinks;
}
