import type { CreateDistribution, DeleteDistribution, UpdateDistribution } from '../requests.js';
import { type Fields, type PathParams, readNumber, readString, withPath } from './fields.js';

/** POST /flags/{flagKey}/rules/{ruleId}/distributions body. */
export function decodeCreateDistribution(body: Fields, path?: PathParams): CreateDistribution {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    ruleId: readString(src, 'ruleId'),
    variantId: readString(src, 'variantId'),
    rollout: readNumber(src, 'rollout'),
  };
}

/** PUT /flags/{flagKey}/rules/{ruleId}/distributions/{id} body. */
export function decodeUpdateDistribution(body: Fields, path?: PathParams): UpdateDistribution {
  const src = withPath(body, path);
  return { ...decodeCreateDistribution(src), id: readString(src, 'id') };
}

/** DELETE of one distribution; `variantId` is a required query parameter. */
export function decodeDeleteDistribution(query: Fields, path?: PathParams): DeleteDistribution {
  const src = withPath(query, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    ruleId: readString(src, 'ruleId'),
    id: readString(src, 'id'),
    variantId: readString(src, 'variantId'),
  };
}
