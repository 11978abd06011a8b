import { invalidField } from '../errors.js';
import type { FlagItemRef } from '../queries.js';
import type { CreateVariant, UpdateVariant } from '../requests.js';
import { requireShortValue, requireValue, resolveNamespace } from './common.validation.js';

/** Largest attachment accepted, in bytes (1000 KiB). */
export const MAX_ATTACHMENT_BYTES = 1_024_000;

const JSON_WHITESPACE_OUTSIDE_STRINGS = /("(?:[^"\\]|\\.)*")|[ \t\n\r]+/g;

/**
 * Checks a variant attachment and returns it compacted (whitespace between tokens removed, the
 * tokens themselves kept as sent, like Go's json.Compact), or `""` when none was sent.
 */
export function normaliseAttachment(attachment: string): string {
  if (attachment === '') return '';
  try {
    JSON.parse(attachment);
  } catch {
    throw invalidField('attachment', 'must be a json string');
  }
  if (new TextEncoder().encode(attachment).byteLength > MAX_ATTACHMENT_BYTES) {
    throw invalidField('attachment', 'must be less than 1000 KB');
  }
  return attachment.replace(JSON_WHITESPACE_OUTSIDE_STRINGS, (_, str: string | undefined) => str ?? '');
}

export function validateCreateVariant(req: CreateVariant): CreateVariant {
  requireValue(req.flagKey, 'flagKey');
  requireShortValue(req.key, 'key');
  const attachment = normaliseAttachment(req.attachment);
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey), attachment };
}

export function validateUpdateVariant(req: UpdateVariant): UpdateVariant {
  requireValue(req.id, 'id');
  requireValue(req.flagKey, 'flagKey');
  requireShortValue(req.key, 'key');
  const attachment = normaliseAttachment(req.attachment);
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey), attachment };
}

/** Get or delete of a variant, rule or rollout: `id`, then `flagKey`. */
export function validateFlagItemRef(req: FlagItemRef): FlagItemRef {
  requireValue(req.id, 'id');
  requireValue(req.flagKey, 'flagKey');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}
