import { invalidField } from '../errors.js';
import type { OrderItems } from '../requests.js';
import { requireValue, resolveNamespace } from './common.validation.js';

/** Ordering of rules (`field` = `ruleIds`) or rollouts (`rolloutIds`): two ids or more, none empty. */
export function validateOrder(req: OrderItems, field: 'ruleIds' | 'rolloutIds'): OrderItems {
  requireValue(req.flagKey, 'flagKey');
  if (req.ids.length < 2) throw invalidField(field, 'must contain atleast 2 elements');
  if (req.ids.includes('')) throw invalidField(field, 'must not contain empty ids');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey), ids: [...req.ids] };
}
