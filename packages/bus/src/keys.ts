/**
 * KV keys of the snapshot bucket. NATS keys allow only `[-/_=.a-zA-Z0-9]` while namespace keys
 * may hold other characters and are case-sensitive, so a namespace's key is its base64url form.
 * A namespace has two keys, its hydration `ns.<b64>` and its delta `ns.<b64>.d`; base64url has no
 * dots, so both sit under the one `ns.>` filter a v2.9 consumer allows and never collide.
 */

const NAMESPACE_PREFIX = 'ns.';
const DELTA_SUFFIX = '.d';

/** Filter matching every namespace key of the bucket, hydrations and deltas (and nothing else). */
export const NAMESPACE_KEYS = `${NAMESPACE_PREFIX}>`;

/** The published token-digest set (digest-bus.ts); outside the namespace keys' filter. */
export const AUTH_DIGESTS_KEY = 'auth.digests';

/** Which of a namespace's two keys a bucket key is. */
export type KeyKind = 'hydration' | 'delta';

/** A namespace key as one NATS token (base64url: no dots, no wildcards), for KV keys and subjects alike. */
export function namespaceToken(namespaceKey: string): string {
  return Buffer.from(namespaceKey, 'utf8').toString('base64url');
}

/** The namespace key of a token made by `namespaceToken`. */
export function namespaceOfToken(token: string): string {
  return Buffer.from(token, 'base64url').toString('utf8');
}

/** The bucket key holding a namespace's hydration (reversible with `namespaceOfKey`). */
export function namespaceKeyToKvKey(namespaceKey: string): string {
  return NAMESPACE_PREFIX + namespaceToken(namespaceKey);
}

/** The bucket key holding a namespace's delta (reversible with `namespaceOfKey`). */
export function namespaceKeyToDeltaKey(namespaceKey: string): string {
  return namespaceKeyToKvKey(namespaceKey) + DELTA_SUFFIX;
}

/** The namespace and kind a bucket key stands for; undefined for keys that are not namespace keys. */
export function parseKvKey(kvKey: string): { namespaceKey: string; kind: KeyKind } | undefined {
  if (!kvKey.startsWith(NAMESPACE_PREFIX)) return undefined;
  const [encoded, suffix, ...rest] = kvKey.slice(NAMESPACE_PREFIX.length).split('.');
  if (encoded === undefined || rest.length > 0 || (suffix !== undefined && `.${suffix}` !== DELTA_SUFFIX)) return undefined;
  return { namespaceKey: namespaceOfToken(encoded), kind: suffix === undefined ? 'hydration' : 'delta' };
}

/** The namespace key a bucket key (hydration or delta) stands for; undefined for other keys. */
export function namespaceOfKey(kvKey: string): string | undefined {
  return parseKvKey(kvKey)?.namespaceKey;
}
