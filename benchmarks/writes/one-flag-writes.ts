/**
 * The measured writes: each changes one flag, as an operator does. Mostly a flag `PUT` that toggles
 * `enabled` and renames it; some variant updates (a new attachment) and distribution or rollout updates
 * (a new split, percentage or value). Flags are picked at random over the whole namespace (seeded).
 */
import { seeded } from '@ensign/testkit';
import type { ModelFlag, SeededNamespace } from './flag-model.js';
import type { Json } from './management-api.js';

export type WriteKind = 'flag' | 'variant' | 'distribution' | 'rollout';

export interface OneFlagWrite {
  kind: WriteKind;
  flagKey: string;
  path: string;
  body: Json;
  /** Records the write in the model once the server accepted it. */
  apply(): void;
}

export class OneFlagWrites {
  private readonly random = seeded(7);
  private readonly variantFlags: ModelFlag[];
  private readonly rolloutFlags: ModelFlag[];
  private serial = 0;

  constructor(private readonly ns: SeededNamespace) {
    this.variantFlags = ns.flags.filter((f) => f.kind === 'variant');
    this.rolloutFlags = ns.flags.filter((f) => f.kind === 'rollouts');
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  /** The next write: 70 % flag updates, 10 % each of variant, distribution and rollout updates. */
  next(): OneFlagWrite {
    this.serial++;
    const roll = this.random();
    if (roll < 0.1 && this.variantFlags.length > 0) return this.variantUpdate(this.pick(this.variantFlags));
    if (roll < 0.2 && this.variantFlags.length > 0) return this.distributionUpdate(this.pick(this.variantFlags));
    if (roll < 0.3 && this.rolloutFlags.length > 0) return this.rolloutUpdate(this.pick(this.rolloutFlags));
    return this.flagUpdate(this.pick(this.ns.flags));
  }

  private flagPath(flag: ModelFlag): string {
    return `/api/v1/namespaces/${this.ns.key}/flags/${flag.key}`;
  }

  private flagUpdate(flag: ModelFlag): OneFlagWrite {
    const name = `${flag.key} (edit ${this.serial})`;
    const enabled = !flag.enabled;
    const body = { name, description: flag.description, enabled, defaultVariantId: flag.defaultVariantId };
    return { kind: 'flag', flagKey: flag.key, path: this.flagPath(flag), body, apply: () => Object.assign(flag, { name, enabled }) };
  }

  private variantUpdate(flag: ModelFlag): OneFlagWrite {
    const variant = this.pick(flag.variants);
    const attachment = JSON.stringify({ color: this.pick(['blue', 'green', 'red']), edit: this.serial });
    return {
      kind: 'variant',
      flagKey: flag.key,
      path: `${this.flagPath(flag)}/variants/${variant.id}`,
      body: { key: variant.key, name: variant.name, attachment },
      apply: () => (variant.attachment = attachment),
    };
  }

  /** A new rollout for one of a rule's two distributions, keeping the pair at 100 % or less. */
  private distributionUpdate(flag: ModelFlag): OneFlagWrite {
    const rule = this.pick(flag.rules);
    const index = Math.floor(this.random() * rule.distributions.length);
    const dist = rule.distributions[index]!;
    const others = rule.distributions.reduce((sum, d, i) => (i === index ? sum : sum + d.rollout), 0);
    const rollout = Math.floor(this.random() * ((100 - others) / 5 + 1)) * 5;
    return {
      kind: 'distribution',
      flagKey: flag.key,
      path: `${this.flagPath(flag)}/rules/${rule.id}/distributions/${dist.id}`,
      body: { variantId: dist.variantId, rollout },
      apply: () => (dist.rollout = rollout),
    };
  }

  /** A threshold rollout gets a new percentage; a segment rollout flips its value. */
  private rolloutUpdate(flag: ModelFlag): OneFlagWrite {
    const rollout = this.pick(flag.rollouts);
    const percentage = rollout.segmentKey === undefined ? Math.floor(this.random() * 101) : rollout.percentage;
    const value = rollout.segmentKey === undefined ? rollout.value : !rollout.value;
    const body =
      rollout.segmentKey === undefined ? { threshold: { percentage, value } } : { segment: { segmentKey: rollout.segmentKey, value } };
    return {
      kind: 'rollout',
      flagKey: flag.key,
      path: `${this.flagPath(flag)}/rollouts/${rollout.id}`,
      body,
      apply: () => Object.assign(rollout, { percentage, value }),
    };
  }
}
