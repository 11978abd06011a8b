import {
  type CreateDistribution,
  type DeleteDistribution,
  type Distribution,
  type UpdateDistribution,
  validateCreateDistribution,
  validateDeleteDistribution,
  validateUpdateDistribution,
} from '@ensign/core';
import type { DistributionRepository } from './distribution.repository.js';

/** Distribution use cases: validate, then hand to storage. */
export class DistributionService {
  constructor(private readonly distributions: DistributionRepository) {}

  create(req: CreateDistribution): Promise<Distribution> {
    return this.distributions.create(validateCreateDistribution(req));
  }

  update(req: UpdateDistribution): Promise<Distribution> {
    return this.distributions.update(validateUpdateDistribution(req));
  }

  delete(req: DeleteDistribution): Promise<void> {
    return this.distributions.delete(validateDeleteDistribution(req));
  }
}
