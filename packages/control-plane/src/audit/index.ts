/** The audit trail: Flipt-compatible audit events from committed changes, to a log file and webhooks. */
export { createAuditTrail, DEFAULT_CLOSE_TIMEOUT_MS } from './audit-dispatcher.js';
export type { AuditDeps, AuditTrail } from './audit-dispatcher.js';
export { AUDIT_DEFAULTS } from './audit-options.js';
export type { AuditOptions, AuditWebhookTemplate } from './audit-options.js';
export { authenticationOf, toAuditEvent } from './audit-event.js';
export type { AuditAction, AuditActor, AuditEvent, AuditType, EnsignAuditDetails } from './audit-event.js';
export { parseAuditEvents } from './audit-filter.js';
export type { AuditFilter } from './audit-filter.js';
export { compileTemplate } from './audit-template.js';
export type { RenderTemplate } from './audit-template.js';
export { auditLogLine, LogSink } from './log-sink.js';
export { SIGNATURE_HEADER, signBody, WebhookSink } from './webhook-sink.js';
export type { AuditSink } from './audit-sink.js';
export type { AuditOutcome } from './audit-metrics.js';
