/** The kind of `audit.sinks.webhook.templates`: Flipt's list of `{url, body, headers}` webhook templates. */
import { type Kind, listOf, type Parsed, readMapping, text } from './config.kinds.js';

/** One template as written in the file. */
export interface WebhookTemplateSetting {
  url: string;
  /** A Go text/template of the JSON body (Flipt's variables: `.Type`, `.Action`, `.Payload`, …). */
  body: string;
  headers: Record<string, string>;
}

const KNOWN = new Set(['url', 'body', 'headers']);
const fail = (reason: string): Parsed<never> => ({ ok: false, reason });

function template(at: string, raw: unknown): Parsed<WebhookTemplateSetting> {
  const fields = readMapping(raw);
  if (fields === undefined || typeof raw === 'string') return fail(`${at}: must be a mapping of url, body and headers`);
  for (const key of Object.keys(fields)) if (!KNOWN.has(key)) return fail(`${at}.${key}: unknown template setting`);
  const url = text().parse(fields.url);
  if (!url.ok) return fail(`${at}.url: ${url.reason}`);
  const body = fields.body === undefined ? { ok: true as const, value: '' } : text({ allowEmpty: true }).parse(fields.body);
  if (!body.ok) return fail(`${at}.body: ${body.reason}`);
  const headers = fields.headers === undefined ? {} : readMapping(fields.headers);
  if (headers === undefined || !Object.values(headers).every((v) => typeof v === 'string')) return fail(`${at}.headers: must be a mapping of header names to strings`);
  return { ok: true, value: { url: url.value, body: body.value, headers: headers as Record<string, string> } };
}

export function webhookTemplates(): Kind<WebhookTemplateSetting[]> {
  const list = listOf('a list of {url, body, headers}', template, (value) => (value.length === 0 ? '[]' : value.map((t) => t.url).join(', ')));
  // Headers may carry credentials: an error never echoes the value.
  return { ...list, redact: () => '***' };
}
