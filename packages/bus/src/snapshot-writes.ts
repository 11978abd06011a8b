/**
 * Writing a namespace's keys with compare-and-set, so that concurrent control planes never put an
 * older hydration or delta over a newer one, nor delete a namespace re-created since, and no
 * process writes over an envelope of a format newer than it reads (a newer release's).
 */
import type { NamespaceSnapshot, SnapshotDelta } from '@ensign/snapshots';
import { type BucketContext, dropObject, type HeldValue, heldValue, newerFormat, objectOf } from './bucket-context.js';
import { encodeEnvelope } from './envelope-codec.js';
import { namespaceKeyToDeltaKey, namespaceKeyToKvKey } from './keys.js';
import { retryWrite } from './kv-follow.js';

const encodeOptions = (context: BucketContext) => ({ version: context.writeVersion, ...(context.maxInlineBytes === undefined ? {} : { maxInlineBytes: context.maxInlineBytes }) });

/** Puts a hydration unless one at least as new is held; the bytes written, or undefined when not placed. */
export async function publishHydration(context: BucketContext, snapshot: NamespaceSnapshot): Promise<number | undefined> {
  const { kv, os } = await context.handles();
  const key = namespaceKeyToKvKey(snapshot.namespaceKey);
  const slot = { namespaceKey: snapshot.namespaceKey, kind: 'hydration' as const };
  const taken = (held: HeldValue<'hydration'> | undefined): boolean => newerFormat(held) || (held?.revision ?? -1) >= snapshot.revision;
  // Cheap early exit before compressing and uploading a document that would not be taken.
  if (taken(heldValue(context, await kv.get(key), slot))) return undefined;
  const encoded = await encodeEnvelope(snapshot, encodeOptions(context));
  if (encoded.object !== undefined) await os.putBlob({ name: encoded.object.name }, encoded.object.data);
  let placed = false;
  try {
    await retryWrite(`publishing the hydration ${snapshot.namespaceKey}@${snapshot.revision}`, async () => {
      const current = await kv.get(key);
      const held = heldValue(context, current, slot);
      if (taken(held)) return;
      await kv.put(key, encoded.value, { previousSeq: current?.revision ?? 0 });
      placed = true;
      await dropObject(context, os, objectOf(held?.envelope));
    });
  } finally {
    if (!placed) await dropObject(context, os, encoded.object?.name);
  }
  return placed ? encoded.value.length + (encoded.object?.data.length ?? 0) : undefined;
}

/**
 * Puts a delta unless the namespace's delta is at least as new; the bytes written, or
 * undefined when not placed. Throws `DeltaTooLargeError` when it would not go inline.
 * The same bytes go on the live subject first, so watchers have the delta even while the
 * bucket's stream waits for a new leader (its content is fixed by its revision: sending it
 * before it is placed, or when a newer one is held, is harmless).
 */
export async function publishDelta(context: BucketContext, delta: SnapshotDelta): Promise<number | undefined> {
  const encoded = await encodeEnvelope(delta, encodeOptions(context));
  await context.publishLive(delta.namespaceKey, encoded.value);
  const { kv } = await context.handles();
  const deltaKey = namespaceKeyToDeltaKey(delta.namespaceKey);
  let placed = false;
  // The hydration is not read: a delta under a newer hydration is skipped by every reader, and
  // reading a hydration (up to a whole inline document) would make each write cost the namespace.
  await retryWrite(`publishing the delta ${delta.namespaceKey}@${delta.revision}`, async () => {
    const current = await kv.get(deltaKey);
    const held = heldValue(context, current, { namespaceKey: delta.namespaceKey, kind: 'delta' });
    if (newerFormat(held) || (held?.revision ?? -1) >= delta.revision) return;
    await kv.put(deltaKey, encoded.value, { previousSeq: current?.revision ?? 0 });
    placed = true;
  });
  return placed ? encoded.value.length : undefined;
}

/**
 * Sends a delta on the live subject only (the bucket is not written); the bytes sent, or
 * undefined when it was not (too large for one message, format 1 pinned, connection closed).
 */
export async function publishLiveDelta(context: BucketContext, delta: SnapshotDelta): Promise<number | undefined> {
  let value: Uint8Array;
  try {
    value = (await encodeEnvelope(delta, encodeOptions(context))).value;
  } catch {
    // Too large, or format 1 (no deltas): the bucket carries a hydration instead.
    return undefined;
  }
  return (await context.publishLive(delta.namespaceKey, value)) ? value.length : undefined;
}

/**
 * Deletes a namespace deleted at `revision`: its delta, then its hydration and object, so watchers
 * see the hydration's deletion last. Nothing is deleted when either key holds a newer revision
 * (the namespace was re-created).
 */
export async function removeNamespace(context: BucketContext, namespaceKey: string, revision: number): Promise<void> {
  const { kv, os } = await context.handles();
  const hydrationKey = namespaceKeyToKvKey(namespaceKey);
  const deltaKey = namespaceKeyToDeltaKey(namespaceKey);
  await retryWrite(`removing ${namespaceKey}@${revision}`, async () => {
    const [hydration, delta] = await Promise.all([kv.get(hydrationKey), kv.get(deltaKey)]);
    const heldHydration = heldValue(context, hydration, { namespaceKey, kind: 'hydration' });
    const heldDelta = heldValue(context, delta, { namespaceKey, kind: 'delta' });
    // A newer release's value naming no revision may be of a namespace re-created since: it stays.
    if ([heldHydration, heldDelta].some((held) => (held?.revision ?? -1) > revision || (newerFormat(held) && held?.revision === -1))) return;
    if (delta?.operation === 'PUT') await kv.delete(deltaKey, { previousSeq: delta.revision });
    if (hydration?.operation === 'PUT') {
      await kv.delete(hydrationKey, { previousSeq: hydration.revision });
      await dropObject(context, os, objectOf(heldHydration?.envelope));
    }
  });
}
