import type { CreateRollout, OrderItems, Page, PageRequest, Rollout, UpdateRollout } from '@ensign/core';

/** Rollout storage (boolean flags). */
export interface RolloutRepository {
  /** Ordered by rank. */
  list(namespaceKey: string, flagKey: string, page: PageRequest): Promise<Page<Rollout>>;
  get(namespaceKey: string, flagKey: string, id: string): Promise<Rollout>;
  /** A rank already taken on the flag → `rank number: <n> already exists`. */
  create(req: CreateRollout): Promise<Rollout>;
  /** The kind (segment/threshold) cannot change. */
  update(req: UpdateRollout): Promise<Rollout>;
  order(req: OrderItems): Promise<void>;
  delete(namespaceKey: string, flagKey: string, id: string): Promise<void>;
}
