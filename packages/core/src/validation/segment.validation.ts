import type { CreateSegment, UpdateSegment } from '../requests.js';
import { requireKey, requireValue, resolveNamespace } from './common.validation.js';

/** COMPAT(flipt): `matchType` is not checked beyond decoding. */
export function validateCreateSegment(req: CreateSegment): CreateSegment {
  requireKey(req.key);
  requireValue(req.name, 'name');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}

export function validateUpdateSegment(req: UpdateSegment): UpdateSegment {
  requireValue(req.key, 'key');
  requireValue(req.name, 'name');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}
