import { invalidField } from '../errors.js';
import type { ListInFlag } from '../queries.js';
import type { CreateRule, OrderItems, PageRequest, UpdateRule } from '../requests.js';
import { requireValue, resolveNamespace } from './common.validation.js';
import { validateOrder } from './order.validation.js';
import { validatePage } from './page.validation.js';
import { checkSegmentRef, normaliseSegmentRef } from './segment-keys.js';
import { checkWindow, mergeWindow } from './timing.validation.js';

/** A list of rules or rollouts with its namespace resolved and its page token read. */
export interface ResolvedListInFlag {
  namespaceKey: string;
  flagKey: string;
  page: PageRequest;
}

export function validateCreateRule(req: CreateRule): CreateRule {
  requireValue(req.flagKey, 'flagKey');
  checkSegmentRef(req);
  if (req.rank <= 0) throw invalidField('rank', 'must be greater than 0');
  checkWindow(mergeWindow({}, req));
  return { ...req, ...normaliseSegmentRef(req), namespaceKey: resolveNamespace(req.namespaceKey) };
}

export function validateUpdateRule(req: UpdateRule): UpdateRule {
  requireValue(req.id, 'id');
  requireValue(req.flagKey, 'flagKey');
  checkSegmentRef(req);
  checkWindow(mergeWindow({}, req));
  return { ...req, ...normaliseSegmentRef(req), namespaceKey: resolveNamespace(req.namespaceKey) };
}

export function validateOrderRules(req: OrderItems): OrderItems {
  return validateOrder(req, 'ruleIds');
}

export function validateListRules(req: ListInFlag): ResolvedListInFlag {
  requireValue(req.flagKey, 'flagKey');
  return {
    namespaceKey: resolveNamespace(req.namespaceKey),
    flagKey: req.flagKey,
    page: validatePage(req.page, true),
  };
}
