import {
  type CreateNamespace,
  type DeleteNamespace,
  type ListNamespaces,
  type Namespace,
  type NamespaceRef,
  type Page,
  type UpdateNamespace,
  validateCreateNamespace,
  validateDeleteNamespace,
  validateListNamespaces,
  validateNamespaceRef,
  validateUpdateNamespace,
} from '@ensign/core';
import type { NamespaceRepository } from './namespace.repository.js';

/** Namespace use cases: validate the decoded request, then hand it to storage. */
export class NamespaceService {
  constructor(private readonly namespaces: NamespaceRepository) {}

  /** With `viewable`, only those namespaces are listed and counted. */
  list(req: ListNamespaces, viewable?: readonly string[]): Promise<Page<Namespace>> {
    return viewable === undefined ? this.namespaces.list(validateListNamespaces(req)) : this.namespaces.list(validateListNamespaces(req), viewable);
  }

  get(req: NamespaceRef): Promise<Namespace> {
    return this.namespaces.get(validateNamespaceRef(req).key);
  }

  create(req: CreateNamespace): Promise<Namespace> {
    return this.namespaces.create(validateCreateNamespace(req));
  }

  update(req: UpdateNamespace): Promise<Namespace> {
    return this.namespaces.update(validateUpdateNamespace(req));
  }

  delete(req: DeleteNamespace): Promise<void> {
    const { key, force } = validateDeleteNamespace(req);
    return this.namespaces.delete(key, force);
  }
}
