/**
 * Ensign's extension of Flipt's rule create: `distributions: [{variantKey, rollout}]` made with the
 * rule in the same write. A change request can then propose a rule and its split in one call,
 * before the rule (and perhaps its variants) have ids.
 */
import { type CreateRule, type Fields, invalidField, isFields, lookup, readString, requireValue } from '@ensign/core';

/** A distribution sent with a new rule: its variant by key. */
export interface RuleDistributionInput {
  variantKey: string;
  rollout: number;
}

/** A new rule, with the distributions to create with it (none when not sent). */
export type CreateRuleWithDistributions = CreateRule & { distributions?: readonly RuleDistributionInput[] | undefined };

/** Rollouts of one rule add up to this at most, whatever floating point makes of 33.3 + 33.3 + 33.4. */
const MAX_TOTAL = 100 + 1e-9;

/**
 * The `distributions` of a rule create body, each rollout within 0..100 as the distribution route
 * asks and all of them within 100; left out when not sent.
 */
export function decodeRuleDistributions(body: Fields): { distributions?: RuleDistributionInput[] } {
  const raw = lookup(body, 'distributions');
  if (raw === undefined) return {};
  if (!Array.isArray(raw)) throw invalidField('distributions', 'must be an array of {variantKey, rollout}');
  let total = 0;
  const distributions = raw.map((item: unknown, i): RuleDistributionInput => {
    const field = `distributions[${i}]`;
    if (!isFields(item)) throw invalidField(field, 'must be an object {variantKey, rollout}');
    const variantKey = readString(item, 'variantKey', `${field}.variantKey`);
    requireValue(variantKey, `${field}.variantKey`);
    const rollout = lookup(item, 'rollout');
    if (typeof rollout !== 'number' || !Number.isFinite(rollout)) throw invalidField(`${field}.rollout`, 'must be a number');
    if (rollout < 0) throw invalidField(`${field}.rollout`, "must be greater than or equal to '0'");
    if (rollout > 100) throw invalidField(`${field}.rollout`, "must be less than or equal to '100'");
    total += rollout;
    return { variantKey, rollout };
  });
  if (total > MAX_TOTAL) throw invalidField('distributions', `rollouts must add up to at most 100, not ${Math.round(total * 1e6) / 1e6}`);
  return { distributions };
}
