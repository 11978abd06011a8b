import { SegmentOperator } from '../enums.js';
import type { ListInFlag } from '../queries.js';
import type { CreateRule, OrderItems, UpdateRule } from '../requests.js';
import { type Fields, type PathParams, readEnum, readInteger, readString, readStringArray, withPath } from './fields.js';
import { readPageQuery } from './page.decode.js';
import { readWindow } from './timing.decode.js';

/** POST /flags/{flagKey}/rules body. */
export function decodeCreateRule(body: Fields, path?: PathParams): CreateRule {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    segmentKey: readString(src, 'segmentKey'),
    segmentKeys: readStringArray(src, 'segmentKeys'),
    segmentOperator: readEnum(src, 'segmentOperator', SegmentOperator) ?? 'OR_SEGMENT_OPERATOR',
    rank: readInteger(src, 'rank'),
    ...readWindow(src),
  };
}

/** PUT /flags/{flagKey}/rules/{id} body; the rank cannot be changed here. */
export function decodeUpdateRule(body: Fields, path?: PathParams): UpdateRule {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    id: readString(src, 'id'),
    segmentKey: readString(src, 'segmentKey'),
    segmentKeys: readStringArray(src, 'segmentKeys'),
    segmentOperator: readEnum(src, 'segmentOperator', SegmentOperator) ?? 'OR_SEGMENT_OPERATOR',
    ...readWindow(src),
  };
}

/** PUT /flags/{flagKey}/rules/order body. */
export function decodeOrderRules(body: Fields, path?: PathParams): OrderItems {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    ids: readStringArray(src, 'ruleIds'),
  };
}

/** GET /flags/{flagKey}/rules query. */
export function decodeListRules(query: Fields, path?: PathParams): ListInFlag {
  const src = withPath(query, path);
  return { namespaceKey: readString(src, 'namespaceKey'), flagKey: readString(src, 'flagKey'), page: readPageQuery(src) };
}
