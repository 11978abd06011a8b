import { randomUUID } from 'node:crypto';
import type { CreateDistribution, DeleteDistribution, Distribution, UpdateDistribution } from '@ensign/core';
import { notFound } from '@ensign/core';
import { created, deleted, updated } from '../change-draft.js';
import { flagPartSubject } from '../change-subjects.js';
import { DistributionModel, toDistribution } from '../models/distribution.model.js';
import type { FlagsRead } from '../loaders/flags-state.loader.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';
import type { NamespaceStateRule } from '../types.js';

const distributionNotFound = (id: string) => notFound(`distribution "${id}" not found`);

/** The rule, which must be the flag's and the variant one of the flag's variants, found in the flag's state. */
function ruleOf(read: FlagsRead | undefined, ns: string, req: CreateDistribution): NamespaceStateRule {
  const rule = read?.state.rules.find((r) => r.id === req.ruleId);
  const variant = read?.state.flags[0]?.variants.find((v) => v.id === req.variantId);
  if (rule === undefined || variant === undefined) {
    throw notFound(`variant "${req.variantId}", rule "${req.ruleId}", flag "${req.flagKey}" in namespace "${ns}" not found`);
  }
  return rule;
}

/** The flag's state with the rule's distributions replaced. */
const withDistributions = (read: FlagsRead, ruleId: string, distributions: Distribution[]): FlagsRead => ({
  ...read,
  state: { ...read.state, rules: read.state.rules.map((r) => (r.id === ruleId ? { ...r, distributions } : r)) },
});

/**
 * Distributions of a rule over its flag's variants; read through the rule. A write reads the flag's
 * state with its revision bump and knows the state it leaves, so on PostgreSQL it is four round trips.
 */
export class KnexDistributionRepository {
  constructor(private readonly tx: Transactor) {}

  create(req: CreateDistribution): Promise<Distribution> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at, read) => {
        const rule = ruleOf(read, ns, req);
        const row = {
          id: randomUUID(),
          rule_id: req.ruleId,
          variant_id: req.variantId,
          rollout: req.rollout,
          created_at: at,
          updated_at: at,
        };
        const distribution = toDistribution(row as DistributionModel);
        // Distributions are read by creation: the new one is last unless another was stamped as late (another clock).
        const last = rule.distributions.every((d) => d.createdAt < at);
        return {
          ...created(flagPartSubject('distribution', req.flagKey, row.id), distribution),
          ...(last && read !== undefined ? { known: withDistributions(read, rule.id, [...rule.distributions, distribution]) } : {}),
          lastWrites: [trx('distributions').insert(row)],
        };
      },
      { ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`), readFirst: { keys: [req.flagKey] } },
    );
  }

  update(req: UpdateDistribution): Promise<Distribution> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at, read) => {
        const rule = ruleOf(read, ns, req);
        const before = rule.distributions.find((d) => d.id === req.id);
        if (read === undefined || before === undefined) throw distributionNotFound(req.id);
        const patch = { variant_id: req.variantId, rollout: req.rollout, updated_at: at };
        const after: Distribution = { ...before, variantId: req.variantId, rollout: Number(req.rollout), updatedAt: at };
        return {
          ...updated(flagPartSubject('distribution', req.flagKey, req.id), before, after),
          known: withDistributions(read, rule.id, rule.distributions.map((d) => (d.id === req.id ? after : d))),
          lastWrites: [trx('distributions').where({ id: req.id, rule_id: req.ruleId }).update(patch)],
        };
      },
      { ifNamespaceMissing: () => distributionNotFound(req.id), readFirst: { keys: [req.flagKey] } },
    );
  }

  delete(req: DeleteDistribution): Promise<void> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.remove(ns, async (trx) => {
      const rulesOfFlag = trx('rules').select('id').where({ namespace_key: ns, flag_key: req.flagKey });
      const row = await DistributionModel.query(trx)
        .where({ id: req.id, rule_id: req.ruleId, variant_id: req.variantId })
        .whereIn('rule_id', rulesOfFlag)
        .first();
      if (row === undefined) return undefined;
      await DistributionModel.query(trx).where({ id: row.id }).delete();
      return deleted(flagPartSubject('distribution', req.flagKey, req.id), toDistribution(row));
    });
  }
}
