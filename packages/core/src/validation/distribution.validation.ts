import { invalidField } from '../errors.js';
import type { CreateDistribution, DeleteDistribution, UpdateDistribution } from '../requests.js';
import { requireValue, resolveNamespace } from './common.validation.js';

function checkDistribution<T extends CreateDistribution>(req: T): T {
  requireValue(req.flagKey, 'flagKey');
  requireValue(req.ruleId, 'ruleId');
  requireValue(req.variantId, 'variantId');
  if (req.rollout < 0) throw invalidField('rollout', "must be greater than or equal to '0'");
  if (req.rollout > 100) throw invalidField('rollout', "must be less than or equal to '100'");
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}

export function validateCreateDistribution(req: CreateDistribution): CreateDistribution {
  return checkDistribution(req);
}

export function validateUpdateDistribution(req: UpdateDistribution): UpdateDistribution {
  requireValue(req.id, 'id');
  return checkDistribution(req);
}

/** COMPAT(flipt): the query parameter `variantId` is required to delete a distribution. */
export function validateDeleteDistribution(req: DeleteDistribution): DeleteDistribution {
  requireValue(req.id, 'id');
  requireValue(req.flagKey, 'flagKey');
  requireValue(req.ruleId, 'ruleId');
  requireValue(req.variantId, 'variantId');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}
