import type { CreateNamespace, Namespace, Page, PageRequest, UpdateNamespace } from '@ensign/core';

/**
 * Namespace storage. Every write is one transaction that also bumps the namespace's revision.
 * Errors are `AppError`s carrying Flipt's messages (`namespace "<key>" not found`, …).
 */
export interface NamespaceRepository {
  /** Ordered by creation, then key; with `keys`, only those (list and total). */
  list(page: PageRequest, keys?: readonly string[]): Promise<Page<Namespace>>;
  get(key: string): Promise<Namespace>;
  create(req: CreateNamespace): Promise<Namespace>;
  update(req: UpdateNamespace): Promise<Namespace>;
  /**
   * Refuses a protected namespace or one that still has flags unless `force`, which deletes
   * everything in it. A namespace that does not exist is NotFound.
   */
  delete(key: string, force: boolean): Promise<void>;
}
