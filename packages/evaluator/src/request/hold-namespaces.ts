/**
 * Making sure the namespaces a request touches are held before it is evaluated: synchronous when
 * they are (or are known not to exist), one await when the source must fetch some (all at once).
 */
import { DEFAULT_NAMESPACE } from '@ensign/core';
import type { HeldSnapshot, SnapshotSource } from '../snapshot-source.js';

/** The namespaces of one request as it sees them: what it loaded stays visible even if the cache has dropped it since. */
export type HeldView = (namespaceKey: string) => HeldSnapshot | undefined;

/** COMPAT(flipt): an empty namespace key means `default`. */
export const namespaceOrDefault = (key: string): string => (key === '' ? DEFAULT_NAMESPACE : key);

/** The view of a source that holds everything asked of it: its own `get`, made once per source. */
export function directView(source: SnapshotSource): HeldView {
  return (namespaceKey) => source.get(namespaceKey);
}

/**
 * `direct` when every namespace in `keys` is held or not fetchable; otherwise a promise of a view
 * over the source with the fetched ones added. Rejects with the source's AppError when a fetch fails.
 */
export function holdNamespaces(source: SnapshotSource, direct: HeldView, keys: readonly string[]): HeldView | Promise<HeldView> {
  if (source.fetchable === undefined) return direct;
  let missing: string[] | undefined;
  for (const sent of keys) {
    const key = namespaceOrDefault(sent);
    if (source.get(key) !== undefined || !source.fetchable(key) || missing?.includes(key)) continue;
    (missing ??= []).push(key);
  }
  if (missing === undefined) return direct;
  // What is held now is kept for this request: fetching the others may push it out of a bounded cache.
  const kept = new Map<string, HeldSnapshot | undefined>();
  for (const sent of keys) {
    const key = namespaceOrDefault(sent);
    if (!missing.includes(key)) kept.set(key, source.get(key));
  }
  return fetchInto(source, missing, kept);
}

async function fetchInto(source: SnapshotSource, keys: readonly string[], kept: Map<string, HeldSnapshot | undefined>): Promise<HeldView> {
  const load = source.load;
  if (load === undefined) throw new Error('a source with fetchable() must have load()');
  const loaded = await Promise.all(keys.map((key) => load.call(source, key)));
  keys.forEach((key, i) => kept.set(key, loaded[i]));
  return (namespaceKey) => (kept.has(namespaceKey) ? kept.get(namespaceKey) : source.get(namespaceKey));
}
