import type { DeleteNamespace, ListNamespaces, NamespaceRef } from '../queries.js';
import type { CreateNamespace, UpdateNamespace } from '../requests.js';
import { type Fields, type PathParams, readBooleanParam, readString, withPath } from './fields.js';
import { readPageQuery } from './page.decode.js';

/** POST /namespaces body. */
export function decodeCreateNamespace(body: Fields, path?: PathParams): CreateNamespace {
  const src = withPath(body, path);
  return { key: readString(src, 'key'), name: readString(src, 'name'), description: readString(src, 'description') };
}

/** PUT /namespaces/{key} body; `key` comes from the path. */
export const decodeUpdateNamespace: (body: Fields, path?: PathParams) => UpdateNamespace = decodeCreateNamespace;

/** GET /namespaces query. */
export function decodeListNamespaces(query: Fields): ListNamespaces {
  return { page: readPageQuery(query) };
}

/** GET /namespaces/{key}. */
export function decodeNamespaceRef(query: Fields, path?: PathParams): NamespaceRef {
  return { key: readString(withPath(query, path), 'key') };
}

/** DELETE /namespaces/{key}?force. */
export function decodeDeleteNamespace(query: Fields, path?: PathParams): DeleteNamespace {
  const src = withPath(query, path);
  return { key: readString(src, 'key'), force: readBooleanParam(src, 'force') };
}
