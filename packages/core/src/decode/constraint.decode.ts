import { ComparisonType } from '../enums.js';
import type { SegmentItemRef } from '../queries.js';
import type { CreateConstraint, UpdateConstraint } from '../requests.js';
import { type Fields, type PathParams, readEnum, readString, withPath } from './fields.js';

/** POST /segments/{segmentKey}/constraints body. An omitted `type` is UNKNOWN, which validation refuses. */
export function decodeCreateConstraint(body: Fields, path?: PathParams): CreateConstraint {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    segmentKey: readString(src, 'segmentKey'),
    type: readEnum(src, 'type', ComparisonType) ?? 'UNKNOWN_COMPARISON_TYPE',
    property: readString(src, 'property'),
    operator: readString(src, 'operator'),
    value: readString(src, 'value'),
    description: readString(src, 'description'),
  };
}

/** PUT /segments/{segmentKey}/constraints/{id} body. */
export function decodeUpdateConstraint(body: Fields, path?: PathParams): UpdateConstraint {
  const src = withPath(body, path);
  return { ...decodeCreateConstraint(src), id: readString(src, 'id') };
}

/** DELETE of one constraint. */
export function decodeSegmentItemRef(query: Fields, path?: PathParams): SegmentItemRef {
  const src = withPath(query, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    segmentKey: readString(src, 'segmentKey'),
    id: readString(src, 'id'),
  };
}
