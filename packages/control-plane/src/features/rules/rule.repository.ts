import type { OrderItems, Page, PageRequest, Rule, UpdateRule } from '@ensign/core';
import type { CreateRuleWithDistributions } from './rule-distributions.js';

/** Rule storage (variant flags); rules carry their distributions (by creation). */
export interface RuleRepository {
  /** Ordered by rank. */
  list(namespaceKey: string, flagKey: string, page: PageRequest): Promise<Page<Rule>>;
  get(namespaceKey: string, flagKey: string, id: string): Promise<Rule>;
  /** With its distributions, when sent, in the same write; an unknown variant key → invalid field `distributions[i].variantKey`. */
  create(req: CreateRuleWithDistributions): Promise<Rule>;
  update(req: UpdateRule): Promise<Rule>;
  /** Assigns ranks 1..n in the given order. */
  order(req: OrderItems): Promise<void>;
  /** Re-numbers the remaining rules 1..n by rank. */
  delete(namespaceKey: string, flagKey: string, id: string): Promise<void>;
}
