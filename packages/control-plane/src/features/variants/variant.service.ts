import {
  type CreateVariant,
  type FlagItemRef,
  type UpdateVariant,
  type Variant,
  validateCreateVariant,
  validateFlagItemRef,
  validateUpdateVariant,
} from '@ensign/core';
import type { VariantRepository } from './variant.repository.js';

/** Variant use cases: validate (attachments compacted), then hand to storage. */
export class VariantService {
  constructor(private readonly variants: VariantRepository) {}

  create(req: CreateVariant): Promise<Variant> {
    return this.variants.create(validateCreateVariant(req));
  }

  update(req: UpdateVariant): Promise<Variant> {
    return this.variants.update(validateUpdateVariant(req));
  }

  delete(req: FlagItemRef): Promise<void> {
    const { namespaceKey, flagKey, id } = validateFlagItemRef(req);
    return this.variants.delete(namespaceKey, flagKey, id);
  }
}
