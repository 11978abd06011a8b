/** Reading what the bucket holds now: one namespace's current snapshot, or every namespace's revision. */
import type { NamespaceSnapshot, SnapshotDelta } from '@ensign/snapshots';
import { type BucketContext, envelopeAt, heldEnvelope, heldValue } from './bucket-context.js';
import { readDelta, readHydration } from './envelope-codec.js';
import { NAMESPACE_KEYS, namespaceKeyToDeltaKey, namespaceKeyToKvKey, parseKvKey } from './keys.js';

/** A namespace as the bucket holds it: its hydration, and the delta on top when that is newer. */
export interface CurrentSnapshot {
  hydration: NamespaceSnapshot;
  delta?: SnapshotDelta;
}

/** Attempts at reading a hydration that newer ones keep replacing (with their objects) under the reader. */
const MAX_READ_ATTEMPTS = 4;

/**
 * The namespace's hydration, with its delta when newer; undefined when no hydration is held. A
 * hydration that cannot be read throws; an unreadable delta is left out with a warning, since the
 * next (cumulative) delta carries its changes too.
 */
export async function currentSnapshot(context: BucketContext, namespaceKey: string): Promise<CurrentSnapshot | undefined> {
  const { kv, os } = await context.handles();
  const key = namespaceKeyToKvKey(namespaceKey);
  let hydration: NamespaceSnapshot | undefined;
  for (let attempt = 1; hydration === undefined; attempt++) {
    const entry = await kv.get(key);
    if (entry === null || entry.operation !== 'PUT') return undefined;
    try {
      hydration = await readHydration(envelopeAt({ namespaceKey, kind: 'hydration' }, entry.value), (name) => os.getBlob(name));
    } catch (err) {
      // A newer hydration may have replaced this one and its object between the two reads.
      const now = await kv.get(key);
      if (attempt >= MAX_READ_ATTEMPTS || now === null || now.revision === entry.revision) throw err;
    }
  }
  const deltaEntry = await kv.get(namespaceKeyToDeltaKey(namespaceKey));
  const envelope = heldEnvelope(context, deltaEntry, { namespaceKey, kind: 'delta' });
  if (envelope === undefined || envelope.revision <= hydration.revision) return { hydration };
  try {
    return { hydration, delta: await readDelta(envelope) };
  } catch (err) {
    context.logger?.warn({ err, namespaceKey, revision: envelope.revision }, 'unreadable snapshot delta left out');
    return { hydration };
  }
}

/**
 * The newest revision held per namespace, hydration or delta, for namespaces whose hydration is there
 * (a delta alone cannot be started from); deleted keys and unreadable values count for nothing, a
 * newer release's values for their revision (they are not to be republished over).
 */
export async function heldRevisions(context: BucketContext): Promise<Map<string, number>> {
  const { kv } = await context.handles();
  const result = new Map<string, number>();
  const hydrated = new Set<string>();
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const iter = await kv.watch({ key: NAMESPACE_KEYS, initializedFn: () => resolve() });
  void (async () => {
    for await (const entry of iter) {
      const key = parseKvKey(entry.key);
      const held = key === undefined ? undefined : heldValue(context, entry, key);
      if (key === undefined || held === undefined || held.revision < 0) continue;
      if (key.kind === 'hydration') hydrated.add(key.namespaceKey);
      result.set(key.namespaceKey, Math.max(result.get(key.namespaceKey) ?? -1, held.revision));
    }
    resolve();
  })().catch(reject);
  try {
    await done;
  } finally {
    iter.stop();
  }
  for (const key of result.keys()) if (!hydrated.has(key)) result.delete(key);
  return result;
}
