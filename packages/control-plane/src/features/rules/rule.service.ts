import {
  type FlagItemRef,
  type ListInFlag,
  type OrderItems,
  type Page,
  type Rule,
  type UpdateRule,
  validateCreateRule,
  validateFlagItemRef,
  validateListRules,
  validateOrderRules,
  validateUpdateRule,
} from '@ensign/core';
import type { CreateRuleWithDistributions } from './rule-distributions.js';
import type { RuleRepository } from './rule.repository.js';

/** Rule use cases: validate (segment keys normalised), then hand to storage. */
export class RuleService {
  constructor(private readonly rules: RuleRepository) {}

  list(req: ListInFlag): Promise<Page<Rule>> {
    const { namespaceKey, flagKey, page } = validateListRules(req);
    return this.rules.list(namespaceKey, flagKey, page);
  }

  get(req: FlagItemRef): Promise<Rule> {
    const { namespaceKey, flagKey, id } = validateFlagItemRef(req);
    return this.rules.get(namespaceKey, flagKey, id);
  }

  create(req: CreateRuleWithDistributions): Promise<Rule> {
    const { distributions } = req;
    return this.rules.create({ ...validateCreateRule(req), ...(distributions === undefined ? {} : { distributions }) });
  }

  update(req: UpdateRule): Promise<Rule> {
    return this.rules.update(validateUpdateRule(req));
  }

  order(req: OrderItems): Promise<void> {
    return this.rules.order(validateOrderRules(req));
  }

  delete(req: FlagItemRef): Promise<void> {
    const { namespaceKey, flagKey, id } = validateFlagItemRef(req);
    return this.rules.delete(namespaceKey, flagKey, id);
  }
}
