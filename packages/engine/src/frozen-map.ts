/** A Map that refuses writes once built, so a compiled snapshot cannot be changed under readers. */
export class FrozenMap<K, V> extends Map<K, V> {
  private readonly sealed: boolean;

  constructor(entries: Iterable<readonly [K, V]>) {
    super();
    for (const [k, v] of entries) super.set(k, v);
    this.sealed = true;
    Object.freeze(this);
  }

  override set(key: K, value: V): this {
    if (this.sealed) throw new TypeError('compiled snapshot is immutable');
    return super.set(key, value);
  }

  override delete(_key: K): boolean {
    throw new TypeError('compiled snapshot is immutable');
  }

  override clear(): void {
    throw new TypeError('compiled snapshot is immutable');
  }
}
