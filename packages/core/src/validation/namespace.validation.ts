import type { DeleteNamespace, ListNamespaces, NamespaceRef } from '../queries.js';
import type { CreateNamespace, PageRequest, UpdateNamespace } from '../requests.js';
import { requireKey, requireValue } from './common.validation.js';
import { validatePage } from './page.validation.js';

export function validateCreateNamespace(req: CreateNamespace): CreateNamespace {
  requireKey(req.key);
  requireValue(req.name, 'name');
  return { ...req };
}

/** No key pattern on update: the namespace already exists. */
export function validateUpdateNamespace(req: UpdateNamespace): UpdateNamespace {
  requireValue(req.key, 'key');
  requireValue(req.name, 'name');
  return { ...req };
}

export function validateListNamespaces(req: ListNamespaces): PageRequest {
  return validatePage(req.page, false);
}

export function validateNamespaceRef(req: NamespaceRef): NamespaceRef {
  requireValue(req.key, 'key');
  return { ...req };
}

export function validateDeleteNamespace(req: DeleteNamespace): DeleteNamespace {
  requireValue(req.key, 'key');
  return { ...req };
}
