import { invalid, invalidField } from '../errors.js';
import type { ListInFlag } from '../queries.js';
import type {
  CreateRollout,
  OrderItems,
  RolloutSegmentInput,
  RolloutThresholdInput,
  UpdateRollout,
} from '../requests.js';
import { requireValue, resolveNamespace } from './common.validation.js';
import { validateOrder } from './order.validation.js';
import { validatePage } from './page.validation.js';
import type { ResolvedListInFlag } from './rule.validation.js';
import { checkSegmentRef, normaliseSegmentRef } from './segment-keys.js';
import { checkRamp, checkWindow, mergeWindow } from './timing.validation.js';

interface RolloutRule {
  segment: RolloutSegmentInput | undefined;
  threshold: RolloutThresholdInput | undefined;
}

/** Checks whichever of segment / threshold was sent and returns both normalised. */
function checkRule(req: RolloutRule): RolloutRule {
  if (req.segment !== undefined && req.threshold !== undefined) {
    throw invalidField('segment or threshold', 'only one can be present');
  }
  const { segment, threshold } = req;
  if (threshold !== undefined && (threshold.percentage < 0 || threshold.percentage > 100)) {
    throw invalidField('threshold.percentage', 'must be within range [0, 100]');
  }
  if (threshold !== undefined) checkRamp(threshold);
  if (segment !== undefined) {
    checkSegmentRef(segment);
    return { segment: { ...segment, ...normaliseSegmentRef(segment) }, threshold: undefined };
  }
  return { segment: undefined, threshold: threshold && { ...threshold } };
}

/** Flipt's checks plus one of ours: the rank must be positive. */
export function validateCreateRollout(req: CreateRollout): CreateRollout {
  requireValue(req.flagKey, 'flagKey');
  const rule = checkRule(req);
  if (req.rank <= 0) throw invalidField('rank', 'must be greater than 0');
  if (rule.segment === undefined && rule.threshold === undefined) throw invalid('rollout rule is missing');
  checkWindow(mergeWindow({}, req));
  return { ...req, ...rule, namespaceKey: resolveNamespace(req.namespaceKey) };
}

/** Whether the kind changes is for the store to say: it knows the stored rollout. */
export function validateUpdateRollout(req: UpdateRollout): UpdateRollout {
  requireValue(req.id, 'id');
  requireValue(req.flagKey, 'flagKey');
  const rule = checkRule(req);
  if (rule.segment === undefined && rule.threshold === undefined) {
    throw invalidField('rule', 'invalid rollout rule type');
  }
  checkWindow(mergeWindow({}, req));
  return { ...req, ...rule, namespaceKey: resolveNamespace(req.namespaceKey) };
}

export function validateOrderRollouts(req: OrderItems): OrderItems {
  return validateOrder(req, 'rolloutIds');
}

/** COMPAT(flipt): ListRollouts does not refuse a page token without a limit. */
export function validateListRollouts(req: ListInFlag): ResolvedListInFlag {
  requireValue(req.flagKey, 'flagKey');
  return {
    namespaceKey: resolveNamespace(req.namespaceKey),
    flagKey: req.flagKey,
    page: validatePage(req.page, false),
  };
}
