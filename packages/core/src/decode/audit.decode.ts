/** GET /api/v1/audit/events (and /namespaces/{namespaceKey}/audit/events): filters and paging. */
import { AUDIT_DEFAULT_LIMIT, AUDIT_MAX_LIMIT, type AuditQuery } from '../audit.js';
import { CHANGE_ACTIONS, CHANGE_RESOURCES } from '../change-record.js';
import { invalidField } from '../errors.js';
import { decodePageCursor } from '../pagination.js';
import { type Fields, lookup, type PathParams, readInteger, readString, withPath } from './fields.js';
import { readTime } from './timing.decode.js';

/** A filter sent once, repeated (`?type=flag&type=rule`) or comma-separated (`?type=flag,rule`). */
function readChoices<const V extends string>(src: Fields, name: string, allowed: readonly V[]): V[] {
  const raw = lookup(src, name);
  if (raw === undefined) return [];
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((value) => {
    if (typeof value !== 'string') throw invalidField(name, 'must be a string');
    return value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  });
  for (const value of values) {
    if (!(allowed as readonly string[]).includes(value)) throw invalidField(name, `"${value}" is not one of ${allowed.join(', ')}`);
  }
  return [...new Set(values)] as V[];
}

const orUndefined = (value: string): string | undefined => (value === '' ? undefined : value);

export function decodeListAuditEvents(query: Fields, path?: PathParams): AuditQuery {
  const src = withPath(query, path);
  const limit = readInteger(src, 'limit');
  if (limit < 0 || limit > AUDIT_MAX_LIMIT) throw invalidField('limit', `must be between 0 and ${AUDIT_MAX_LIMIT}`);
  const from = readTime(src, 'from');
  const to = readTime(src, 'to');
  if (from !== undefined && to !== undefined && from >= to) throw invalidField('to', 'must be later than from');
  const pageToken = readString(src, 'pageToken');
  const beforeId = pageToken === '' ? undefined : decodePageCursor(pageToken).key;
  if (beforeId !== undefined && !/^\d+$/.test(beforeId)) throw invalidField('pageToken', 'is not a page token of this list');
  const namespaceKey = orUndefined(readString(src, 'namespaceKey'));
  const key = orUndefined(readString(src, 'key'));
  const actor = orUndefined(readString(src, 'actor'));
  return {
    ...(namespaceKey === undefined ? {} : { namespaceKey }),
    resources: readChoices(src, 'type', CHANGE_RESOURCES),
    ...(key === undefined ? {} : { key }),
    ...(actor === undefined ? {} : { actor }),
    actions: readChoices(src, 'action', CHANGE_ACTIONS),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    limit: limit === 0 ? AUDIT_DEFAULT_LIMIT : limit,
    ...(beforeId === undefined ? {} : { beforeId }),
  };
}
