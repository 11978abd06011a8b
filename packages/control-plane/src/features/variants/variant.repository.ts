import type { CreateVariant, UpdateVariant, Variant } from '@ensign/core';

/** Variant storage; variants are read through their flag. */
export interface VariantRepository {
  /** NotFound when the flag does not exist; duplicate key within the flag is InvalidArgument. */
  create(req: CreateVariant): Promise<Variant>;
  update(req: UpdateVariant): Promise<Variant>;
  /** Cascades to distributions and clears it as the flag's default. Missing variant succeeds. */
  delete(namespaceKey: string, flagKey: string, id: string): Promise<void>;
}
