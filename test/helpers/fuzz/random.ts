/** The fuzzers' randomness: one seeded generator per case, so any case can be replayed alone. */
import { seeded } from '@ensign/testkit';

/** Draws from a seeded generator; the same seed gives the same draws on every machine. */
export class FuzzRandom {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = seeded(seed);
  }

  /** The generator of case `index` of a run seeded `seed`: independent of every other case. */
  static forCase(seed: number, index: number): FuzzRandom {
    return new FuzzRandom(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.#next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[this.int(items.length)] as T;
  }

  /** One of `choices`, by weight. */
  weighted<T>(choices: ReadonlyArray<readonly [weight: number, value: T]>): T {
    const total = choices.reduce((sum, [weight]) => sum + weight, 0);
    let at = this.#next() * total;
    for (const [weight, value] of choices) {
      at -= weight;
      if (at < 0) return value;
    }
    return (choices[choices.length - 1] as readonly [number, T])[1];
  }

  bytes(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  /** A size that is mostly small and now and then large: 0…`max`, log-uniform. */
  size(max: number): number {
    return Math.min(max, Math.floor(Math.exp(this.#next() * Math.log(max + 2))) - 1);
  }
}
