import type { CreateDistribution, DeleteDistribution, Distribution, UpdateDistribution } from '@ensign/core';

/** Distribution storage; distributions are read through their rule. */
export interface DistributionRepository {
  /** The variant must belong to the rule's flag, else NotFound. */
  create(req: CreateDistribution): Promise<Distribution>;
  update(req: UpdateDistribution): Promise<Distribution>;
  delete(req: DeleteDistribution): Promise<void>;
}
