import { invalidField } from '../errors.js';
import type { KeyRef, ListInNamespace } from '../queries.js';
import type { CreateFlag, PageRequest, UpdateFlag } from '../requests.js';
import { requireKey, requireValue, resolveNamespace } from './common.validation.js';
import { validatePage } from './page.validation.js';
import { checkPrerequisites } from './timing.validation.js';

/** A list of flags or segments with its namespace resolved and its page token read. */
export interface ResolvedListInNamespace {
  namespaceKey: string;
  page: PageRequest;
}

/** COMPAT(flipt): `type` is not checked beyond decoding. */
export function validateCreateFlag(req: CreateFlag): CreateFlag {
  requireKey(req.key);
  requireValue(req.name, 'name');
  checkPrerequisites(req.key, req.prerequisites);
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}

export function validateUpdateFlag(req: UpdateFlag): UpdateFlag {
  requireValue(req.key, 'key');
  requireValue(req.name, 'name');
  if (req.defaultVariantId !== '' && (req.defaultVariantKey ?? '') !== '') {
    throw invalidField('defaultVariantKey', 'cannot be sent with defaultVariantId: name the default variant once');
  }
  checkPrerequisites(req.key, req.prerequisites);
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}

/** Get or delete of a flag or segment. */
export function validateKeyRef(req: KeyRef): KeyRef {
  requireValue(req.key, 'key');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}

/** List of flags or segments. */
export function validateListInNamespace(req: ListInNamespace): ResolvedListInNamespace {
  return { namespaceKey: resolveNamespace(req.namespaceKey), page: validatePage(req.page, true) };
}
