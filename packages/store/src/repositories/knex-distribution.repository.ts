import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { CreateDistribution, DeleteDistribution, Distribution, UpdateDistribution } from '@ensign/core';
import { notFound } from '@ensign/core';
import { created, deleted, updated } from '../change-draft.js';
import { flagPartSubject } from '../change-subjects.js';
import { DistributionModel, toDistribution } from '../models/distribution.model.js';
import { RuleModel } from '../models/rule.model.js';
import { VariantModel } from '../models/variant.model.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const distributionNotFound = (id: string) => notFound(`distribution "${id}" not found`);

/** The rule must be the flag's and the variant one of the flag's variants, in the namespace. */
async function checkReferences(trx: Knex.Transaction, ns: string, req: CreateDistribution): Promise<void> {
  const ofFlag = { namespace_key: ns, flag_key: req.flagKey };
  const rule = await RuleModel.query(trx).findOne({ id: req.ruleId, ...ofFlag });
  const variant = await VariantModel.query(trx).findOne({ id: req.variantId, ...ofFlag });
  if (rule === undefined || variant === undefined) {
    throw notFound(`variant "${req.variantId}", rule "${req.ruleId}", flag "${req.flagKey}" in namespace "${ns}" not found`);
  }
}

/** Distributions of a rule over its flag's variants; read through the rule. */
export class KnexDistributionRepository {
  constructor(private readonly tx: Transactor) {}

  create(req: CreateDistribution): Promise<Distribution> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        await checkReferences(trx, ns, req);
        const row = {
          id: randomUUID(),
          rule_id: req.ruleId,
          variant_id: req.variantId,
          rollout: req.rollout,
          created_at: at,
          updated_at: at,
        };
        await DistributionModel.query(trx).insert(row);
        return created(flagPartSubject('distribution', req.flagKey, row.id), toDistribution(row as DistributionModel));
      },
      { ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`) },
    );
  }

  update(req: UpdateDistribution): Promise<Distribution> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        await checkReferences(trx, ns, req);
        const where = { id: req.id, rule_id: req.ruleId };
        const current = await DistributionModel.query(trx).findOne(where);
        if (current === undefined) throw distributionNotFound(req.id);
        const before = toDistribution(current);
        const patch = { variant_id: req.variantId, rollout: req.rollout, updated_at: at };
        await DistributionModel.query(trx).where(where).patch(patch);
        return updated(flagPartSubject('distribution', req.flagKey, req.id), before, toDistribution(Object.assign(current, patch)));
      },
      { ifNamespaceMissing: () => distributionNotFound(req.id) },
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
