import { MatchType } from '../enums.js';
import type { CreateSegment, UpdateSegment } from '../requests.js';
import { type Fields, type PathParams, readEnum, readString, withPath } from './fields.js';

/** POST /segments body. `matchType` defaults to ALL_MATCH_TYPE. */
export function decodeCreateSegment(body: Fields, path?: PathParams): CreateSegment {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    key: readString(src, 'key'),
    name: readString(src, 'name'),
    description: readString(src, 'description'),
    matchType: readEnum(src, 'matchType', MatchType) ?? 'ALL_MATCH_TYPE',
  };
}

/** PUT /segments/{key} body. */
export const decodeUpdateSegment: (body: Fields, path?: PathParams) => UpdateSegment = decodeCreateSegment;
