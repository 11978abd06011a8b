import {
  type CreateRollout,
  type FlagItemRef,
  type ListInFlag,
  type OrderItems,
  type Page,
  type Rollout,
  type UpdateRollout,
  validateCreateRollout,
  validateFlagItemRef,
  validateListRollouts,
  validateOrderRollouts,
  validateUpdateRollout,
} from '@ensign/core';
import type { RolloutRepository } from './rollout.repository.js';

/** Rollout use cases: validate (exactly one of segment/threshold), then hand to storage. */
export class RolloutService {
  constructor(private readonly rollouts: RolloutRepository) {}

  list(req: ListInFlag): Promise<Page<Rollout>> {
    const { namespaceKey, flagKey, page } = validateListRollouts(req);
    return this.rollouts.list(namespaceKey, flagKey, page);
  }

  get(req: FlagItemRef): Promise<Rollout> {
    const { namespaceKey, flagKey, id } = validateFlagItemRef(req);
    return this.rollouts.get(namespaceKey, flagKey, id);
  }

  create(req: CreateRollout): Promise<Rollout> {
    return this.rollouts.create(validateCreateRollout(req));
  }

  update(req: UpdateRollout): Promise<Rollout> {
    return this.rollouts.update(validateUpdateRollout(req));
  }

  order(req: OrderItems): Promise<void> {
    return this.rollouts.order(validateOrderRollouts(req));
  }

  delete(req: FlagItemRef): Promise<void> {
    const { namespaceKey, flagKey, id } = validateFlagItemRef(req);
    return this.rollouts.delete(namespaceKey, flagKey, id);
  }
}
