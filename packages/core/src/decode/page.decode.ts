import type { PageQuery } from '../queries.js';
import { type Fields, readInteger, readString } from './fields.js';

/**
 * The paging parameters of a list request. `withOffset: false` for rollouts, whose request has
 * no `offset` field (COMPAT(flipt): ListRolloutRequest only has `limit` and `pageToken`).
 */
export function readPageQuery(src: Fields, withOffset = true): PageQuery {
  return {
    limit: readInteger(src, 'limit'),
    offset: withOffset ? readInteger(src, 'offset') : 0,
    pageToken: readString(src, 'pageToken'),
  };
}
