import { invalid, invalidField } from '../errors.js';
import { decodePageToken } from '../pagination.js';
import type { PageQuery } from '../queries.js';
import type { PageRequest } from '../requests.js';

/**
 * Checks the paging parameters and resolves the page token into an offset (the token wins over
 * `offset`). `requireLimit`: COMPAT(flipt) only ListFlags, ListSegments and ListRules refuse a
 * token or offset without a limit.
 */
export function validatePage(page: PageQuery, requireLimit: boolean): PageRequest {
  if (page.limit < 0) throw invalidField('limit', 'must be greater than or equal to 0');
  if (page.offset < 0) throw invalidField('offset', 'must be greater than or equal to 0');
  if (requireLimit && page.limit === 0 && (page.offset > 0 || page.pageToken !== '')) {
    throw invalid('limit must be set when offset or pageToken is set');
  }
  const offset = page.pageToken === '' ? page.offset : decodePageToken(page.pageToken);
  return { limit: page.limit, offset };
}
