import { FlagType } from '../enums.js';
import type { KeyRef, ListInNamespace } from '../queries.js';
import type { CreateFlag, UpdateFlag } from '../requests.js';
import type { Prerequisite } from '../resources.js';
import { type Fields, lookup, type PathParams, readBoolean, readEnum, readObject, readString, withPath } from './fields.js';
import { readPageQuery } from './page.decode.js';
import { readPrerequisites } from './timing.decode.js';

/** `prerequisites` when sent; left out otherwise, as Flipt's requests have no such field. */
function prerequisitesOf(src: Fields): { prerequisites?: Prerequisite[] } {
  const prerequisites = readPrerequisites(src);
  return prerequisites === undefined ? {} : { prerequisites };
}

/** `defaultVariantKey` when sent (Ensign's extension); left out otherwise. */
function defaultVariantKeyOf(src: Fields): { defaultVariantKey?: string } {
  return lookup(src, 'defaultVariantKey') === undefined ? {} : { defaultVariantKey: readString(src, 'defaultVariantKey') };
}

/** POST /flags body. `type` defaults to VARIANT_FLAG_TYPE. */
export function decodeCreateFlag(body: Fields, path?: PathParams): CreateFlag {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    key: readString(src, 'key'),
    name: readString(src, 'name'),
    description: readString(src, 'description'),
    enabled: readBoolean(src, 'enabled'),
    type: readEnum(src, 'type', FlagType) ?? 'VARIANT_FLAG_TYPE',
    metadata: readObject(src, 'metadata'),
    ...prerequisitesOf(src),
  };
}

/** PUT /flags/{key} body: a full replace, so an omitted `enabled` is false and `defaultVariantId` is cleared. */
export function decodeUpdateFlag(body: Fields, path?: PathParams): UpdateFlag {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    key: readString(src, 'key'),
    name: readString(src, 'name'),
    description: readString(src, 'description'),
    enabled: readBoolean(src, 'enabled'),
    defaultVariantId: readString(src, 'defaultVariantId'),
    ...defaultVariantKeyOf(src),
    metadata: readObject(src, 'metadata'),
    ...prerequisitesOf(src),
  };
}

/** GET /flags or /segments query. */
export function decodeListInNamespace(query: Fields, path?: PathParams): ListInNamespace {
  const src = withPath(query, path);
  return { namespaceKey: readString(src, 'namespaceKey'), page: readPageQuery(src) };
}

/** GET or DELETE of one flag or segment. */
export function decodeKeyRef(query: Fields, path?: PathParams): KeyRef {
  const src = withPath(query, path);
  return { namespaceKey: readString(src, 'namespaceKey'), key: readString(src, 'key') };
}
