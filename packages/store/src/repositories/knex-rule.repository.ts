import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { CreateRule, OrderItems, Page, PageRequest, Rule, SegmentOperator, UpdateRule } from '@ensign/core';
import { checkWindow, invalid, invalidField, mergeWindow, notFound } from '@ensign/core';
import { created, updated } from '../change-draft.js';
import { replacePartSteps } from '../flag-steps.js';
import { windowColumns } from '../loaders/window.js';
import { flagPartSubject } from '../change-subjects.js';
import { loadRule, withRuleParts } from '../loaders/rule.loader.js';
import { DistributionModel } from '../models/distribution.model.js';
import { FlagModel } from '../models/flag.model.js';
import { RuleSegmentModel } from '../models/rule-segment.model.js';
import { RuleModel } from '../models/rule.model.js';
import { VariantModel } from '../models/variant.model.js';
import { applyWindow, fetchPage } from '../paging.js';
import { BY_RANK, deleteRanked, orderOnFlag, RULES } from '../ranking.js';
import { firstMissingSegment, requestedSegmentKeys } from '../segment-keys.js';
import { countRows, nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

const ruleNotFound = (ns: string, id: string) => notFound(`rule "${ns}/${id}" not found`);

async function mustLoad(db: Knex, ns: string, flagKey: string, id: string): Promise<Rule> {
  const rule = await loadRule(db, ns, flagKey, id);
  if (rule === undefined) throw ruleNotFound(ns, id);
  return rule;
}

/** Checks the flag is a variant flag and every segment exists; returns the merged segment keys. */
async function checkReferences(
  trx: Knex.Transaction,
  ns: string,
  flagKey: string,
  input: { segmentKey: string; segmentKeys: string[] },
): Promise<string[]> {
  const keys = requestedSegmentKeys(input);
  const flag = await FlagModel.query(trx).findById([ns, flagKey]);
  const missing = await firstMissingSegment(trx, ns, keys);
  if (flag === undefined || missing !== undefined) {
    throw notFound(`flag "${ns}/${flagKey}" or segment "${ns}/${missing ?? keys[0] ?? ''}" not found`);
  }
  if (flag.type !== 'VARIANT_FLAG_TYPE') throw invalid(`flag "${ns}/${flagKey}" is not a variant flag`);
  return keys;
}

async function insertSegments(trx: Knex.Transaction, ns: string, ruleId: string, keys: string[]): Promise<void> {
  for (const [position, segmentKey] of keys.entries()) {
    await RuleSegmentModel.query(trx).insert({ rule_id: ruleId, namespace_key: ns, segment_key: segmentKey, position });
  }
}

/** A distribution sent with a new rule (Ensign's extension): its variant named by key, since a variant made in the same change request has no id to send yet. */
export interface RuleDistributionInput {
  variantKey: string;
  rollout: number;
}

/** A new rule, with the distributions to create with it. */
export type CreateRuleWithDistributions = CreateRule & { distributions?: readonly RuleDistributionInput[] | undefined };

/**
 * The rule's distributions, their variants found by key among the flag's. Each is stamped one
 * millisecond after the one before it: distributions are read by creation, and their order sets
 * the buckets they take.
 */
async function insertDistributions(
  trx: Knex.Transaction,
  ns: string,
  flagKey: string,
  ruleId: string,
  distributions: readonly RuleDistributionInput[],
  at: string,
): Promise<void> {
  const variants = (await VariantModel.query(trx).where({ namespace_key: ns, flag_key: flagKey }).select('id', 'key')) as Array<{ id: string; key: string }>;
  const idOf = new Map(variants.map((v) => [v.key, v.id]));
  const base = Date.parse(at);
  const rows = distributions.map((d, i) => {
    const variantId = idOf.get(d.variantKey);
    if (variantId === undefined) throw invalidField(`distributions[${i}].variantKey`, `flag "${ns}/${flagKey}" has no variant "${d.variantKey}"`);
    const stamp = new Date(base + i).toISOString();
    return { id: randomUUID(), rule_id: ruleId, variant_id: variantId, rollout: d.rollout, created_at: stamp, updated_at: stamp };
  });
  for (const row of rows) await DistributionModel.query(trx).insert(row);
}

/** With a single segment the operator is meaningless; Flipt stores OR. */
const operatorFor = (keys: string[], requested: SegmentOperator): SegmentOperator =>
  keys.length === 1 ? 'OR_SEGMENT_OPERATOR' : requested;

/** Rules of variant flags, with their segments and distributions. */
export class KnexRuleRepository {
  constructor(private readonly tx: Transactor) {}

  list(namespaceKey: string, flagKey: string, page: PageRequest): Promise<Page<Rule>> {
    const ns = nsOf(namespaceKey);
    const where = { namespace_key: ns, flag_key: flagKey };
    return this.tx.read((db) =>
      fetchPage(
        page,
        (limit, offset) =>
          applyWindow(
            RuleModel.query(db).where(where).orderBy(BY_RANK),
            limit,
            offset,
          ),
        () => countRows(db, 'rules', where),
        (rows) => withRuleParts(db, rows),
      ),
    );
  }

  get(namespaceKey: string, flagKey: string, id: string): Promise<Rule> {
    return this.tx.read((db) => mustLoad(db, nsOf(namespaceKey), flagKey, id));
  }

  /** The rule and its distributions, if any, in one write: one change record, whose `after` carries them. */
  create(req: CreateRuleWithDistributions): Promise<Rule> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const keys = await checkReferences(trx, ns, req.flagKey, req);
        const window = mergeWindow({}, req);
        const id = randomUUID();
        await RuleModel.query(trx).insert({
          id,
          namespace_key: ns,
          flag_key: req.flagKey,
          rank: req.rank,
          segment_operator: operatorFor(keys, req.segmentOperator),
          ...windowColumns(window),
          created_at: at,
          updated_at: at,
        });
        await insertSegments(trx, ns, id, keys);
        await insertDistributions(trx, ns, req.flagKey, id, req.distributions ?? [], at);
        await replacePartSteps(trx, { namespaceKey: ns, flagKey: req.flagKey, id, noun: 'rule', window, ramp: undefined }, at, this.tx.actor());
        return created(flagPartSubject('rule', req.flagKey, id), await mustLoad(trx, ns, req.flagKey, id));
      },
      { ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`) },
    );
  }

  update(req: UpdateRule): Promise<Rule> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const where = { id: req.id, namespace_key: ns, flag_key: req.flagKey };
        const before = await mustLoad(trx, ns, req.flagKey, req.id);
        const keys = await checkReferences(trx, ns, req.flagKey, req);
        const window = mergeWindow(before, req);
        checkWindow(window);
        await RuleModel.query(trx)
          .where(where)
          .patch({ segment_operator: operatorFor(keys, req.segmentOperator), ...windowColumns(window), updated_at: at });
        await RuleSegmentModel.query(trx).where({ rule_id: req.id }).delete();
        await insertSegments(trx, ns, req.id, keys);
        await replacePartSteps(trx, { namespaceKey: ns, flagKey: req.flagKey, id: req.id, noun: 'rule', window, ramp: undefined }, at, this.tx.actor());
        return updated(flagPartSubject('rule', req.flagKey, req.id), before, await mustLoad(trx, ns, req.flagKey, req.id));
      },
      { ifNamespaceMissing: () => ruleNotFound(ns, req.id) },
    );
  }

  order(req: OrderItems): Promise<void> {
    return orderOnFlag(this.tx, RULES, req);
  }

  delete(namespaceKey: string, flagKey: string, id: string): Promise<void> {
    return deleteRanked(this.tx, RULES, namespaceKey, flagKey, id);
  }
}
