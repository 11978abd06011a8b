import { invalidField, isFields } from '@ensign/core';

/**
 * The parsed document, made to name `namespaceKey`: one that names no namespace is imported into
 * the path's, one that names another is a 400 (an export of `staging` is not imported into
 * `production` by mistake; remove its `namespace` to mean it). Anything that is not a mapping is
 * left for the codec to refuse with its path.
 */
export function forNamespace(value: unknown, namespaceKey: string): unknown {
  if (!isFields(value)) return value;
  const sent = value['namespace'];
  if (sent === undefined || sent === null) return { ...value, namespace: namespaceKey };
  if (isFields(sent) && (sent['key'] === undefined || sent['key'] === null)) return { ...value, namespace: { ...sent, key: namespaceKey } };
  const key = typeof sent === 'string' ? sent : isFields(sent) ? sent['key'] : undefined;
  if (typeof key === 'string' && key !== namespaceKey) {
    throw invalidField('namespace', `the document is for namespace ${JSON.stringify(key)}, not ${JSON.stringify(namespaceKey)}; remove it to import into ${JSON.stringify(namespaceKey)}`);
  }
  return value;
}
