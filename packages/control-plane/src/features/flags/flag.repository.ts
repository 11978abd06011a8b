import type { CreateFlag, Flag, Page, PageRequest, UpdateFlag } from '@ensign/core';

/** Flag storage; flags carry their variants (by creation) and default variant. */
export interface FlagRepository {
  /** Ordered by creation, then key. Flags without metadata report `{}`. */
  list(namespaceKey: string, page: PageRequest): Promise<Page<Flag>>;
  /** `metadata` omitted when unset. NotFound: `flag "<ns>/<key>" not found`. */
  get(namespaceKey: string, key: string): Promise<Flag>;
  /** NotFound when the namespace does not exist; duplicate key → `flag "<ns>/<key>" is not unique`. */
  create(req: CreateFlag): Promise<Flag>;
  /** A `defaultVariantId` that is not this flag's → `variant "<id>" not found for flag "<ns>/<key>"`. */
  update(req: UpdateFlag): Promise<Flag>;
  /** Cascades to variants, rules, distributions, rollouts. Deleting a missing flag succeeds. */
  delete(namespaceKey: string, key: string): Promise<void>;
}
