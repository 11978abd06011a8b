import type { FlagItemRef } from '../queries.js';
import type { CreateVariant, UpdateVariant } from '../requests.js';
import { type Fields, type PathParams, readString, withPath } from './fields.js';

/** POST /flags/{flagKey}/variants body; `attachment` is a string holding JSON. */
export function decodeCreateVariant(body: Fields, path?: PathParams): CreateVariant {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    key: readString(src, 'key'),
    name: readString(src, 'name'),
    description: readString(src, 'description'),
    attachment: readString(src, 'attachment'),
  };
}

/** PUT /flags/{flagKey}/variants/{id} body. */
export function decodeUpdateVariant(body: Fields, path?: PathParams): UpdateVariant {
  const src = withPath(body, path);
  return { ...decodeCreateVariant(src), id: readString(src, 'id') };
}

/** GET or DELETE of one variant, rule or rollout of a flag. */
export function decodeFlagItemRef(query: Fields, path?: PathParams): FlagItemRef {
  const src = withPath(query, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    id: readString(src, 'id'),
  };
}
