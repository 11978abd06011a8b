/**
 * An immutable map that a new version can be made of in time proportional to the change, not the
 * size: a shared, never-written base plus a small overlay of what changed since. Reading costs at
 * most two Map lookups; once the overlay outgrows its bound, the next version folds it into a new
 * base (amortised over the writes that filled it).
 */

/** Marks a key removed in the overlay while the base still holds it. */
const REMOVED: unique symbol = Symbol('removed');
type Slot<V> = V | typeof REMOVED;

/**
 * The overlay is folded into a new base once it holds more keys than the square root of the base's
 * size (at least this many): copying the overlay on each version and folding it now and then then
 * cost about the same, O(√n) per version.
 */
const MIN_OVERLAY = 32;

export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  readonly size: number;

  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly overlay: ReadonlyMap<K, Slot<V>>,
    size: number,
  ) {
    this.size = size;
    Object.freeze(this);
  }

  /** A map holding `entries`; a later key wins over an earlier one. */
  static of<K, V>(entries: Iterable<readonly [K, V]>): LayeredMap<K, V> {
    const base = new Map<K, V>();
    for (const [k, v] of entries) base.set(k, v);
    return new LayeredMap<K, V>(base, new Map(), base.size);
  }

  get(key: K): V | undefined {
    const slot = this.overlay.get(key);
    if (slot === undefined) return this.base.get(key);
    return slot === REMOVED ? undefined : slot;
  }

  has(key: K): boolean {
    const slot = this.overlay.get(key);
    if (slot === undefined) return this.base.has(key);
    return slot !== REMOVED;
  }

  /** A new version with `set` put and `remove` taken out (a key in both is put); this one is unchanged. */
  with(set: Iterable<readonly [K, V]>, remove: Iterable<K> = []): LayeredMap<K, V> {
    const overlay = new Map<K, Slot<V>>(this.overlay);
    let size = this.size;
    for (const key of remove) {
      if (!this.has(key)) continue;
      size -= 1;
      if (this.base.has(key)) overlay.set(key, REMOVED);
      else overlay.delete(key);
    }
    for (const [key, value] of set) {
      const held = overlay.has(key) ? overlay.get(key) !== REMOVED : this.base.has(key);
      if (!held) size += 1;
      overlay.set(key, value);
    }
    if (overlay.size > Math.max(MIN_OVERLAY, Math.sqrt(this.base.size))) return LayeredMap.fold(this.base, overlay, size);
    return new LayeredMap(this.base, overlay, size);
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.base) {
      if (!this.overlay.has(k)) yield [k, v];
    }
    for (const [k, slot] of this.overlay) {
      if (slot !== REMOVED) yield [k, slot];
    }
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  private static fold<K, V>(base: ReadonlyMap<K, V>, overlay: ReadonlyMap<K, Slot<V>>, size: number): LayeredMap<K, V> {
    const merged = new Map<K, V>();
    for (const [k, v] of base) {
      const slot = overlay.get(k);
      if (slot === undefined) merged.set(k, v);
      else if (slot !== REMOVED) merged.set(k, slot);
    }
    for (const [k, slot] of overlay) {
      if (slot !== REMOVED && !base.has(k)) merged.set(k, slot);
    }
    return new LayeredMap<K, V>(merged, new Map(), size);
  }
}
