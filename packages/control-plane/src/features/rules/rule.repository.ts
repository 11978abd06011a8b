import type { CreateRule, OrderItems, Page, PageRequest, Rule, UpdateRule } from '@ensign/core';

/** Rule storage (variant flags); rules carry their distributions (by creation). */
export interface RuleRepository {
  /** Ordered by rank. */
  list(namespaceKey: string, flagKey: string, page: PageRequest): Promise<Page<Rule>>;
  get(namespaceKey: string, flagKey: string, id: string): Promise<Rule>;
  create(req: CreateRule): Promise<Rule>;
  update(req: UpdateRule): Promise<Rule>;
  /** Assigns ranks 1..n in the given order. */
  order(req: OrderItems): Promise<void>;
  /** Re-numbers the remaining rules 1..n by rank. */
  delete(namespaceKey: string, flagKey: string, id: string): Promise<void>;
}
