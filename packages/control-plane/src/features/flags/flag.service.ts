import {
  type CreateFlag,
  type Flag,
  type KeyRef,
  type ListInNamespace,
  type Page,
  type UpdateFlag,
  validateCreateFlag,
  validateKeyRef,
  validateListInNamespace,
  validateUpdateFlag,
} from '@ensign/core';
import type { FlagRepository } from './flag.repository.js';

/** Flag use cases: validate the decoded request, then hand it to storage. */
export class FlagService {
  constructor(private readonly flags: FlagRepository) {}

  list(req: ListInNamespace): Promise<Page<Flag>> {
    const { namespaceKey, page } = validateListInNamespace(req);
    return this.flags.list(namespaceKey, page);
  }

  get(req: KeyRef): Promise<Flag> {
    const { namespaceKey, key } = validateKeyRef(req);
    return this.flags.get(namespaceKey, key);
  }

  create(req: CreateFlag): Promise<Flag> {
    return this.flags.create(validateCreateFlag(req));
  }

  update(req: UpdateFlag): Promise<Flag> {
    return this.flags.update(validateUpdateFlag(req));
  }

  delete(req: KeyRef): Promise<void> {
    const { namespaceKey, key } = validateKeyRef(req);
    return this.flags.delete(namespaceKey, key);
  }
}
