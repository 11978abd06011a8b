import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { CreateRule, Flag, OrderItems, Page, PageRequest, Rule, SegmentOperator, UpdateRule } from '@ensign/core';
import { checkWindow, invalid, invalidField, mergeWindow, notFound } from '@ensign/core';
import { created, updated } from '../change-draft.js';
import { partStepRows, replacePartSteps } from '../flag-steps.js';
import { windowColumns } from '../loaders/window.js';
import { flagPartSubject } from '../change-subjects.js';
import { loadRule, toRule, withRuleParts } from '../loaders/rule.loader.js';
import { type DistributionModel, toDistribution } from '../models/distribution.model.js';
import { FlagModel } from '../models/flag.model.js';
import { RuleSegmentModel } from '../models/rule-segment.model.js';
import { RuleModel } from '../models/rule.model.js';
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
  flagOf: () => PromiseLike<{ type: string } | undefined> = () => FlagModel.query(trx).findById([ns, flagKey]),
): Promise<string[]> {
  const keys = requestedSegmentKeys(input);
  const flag = await flagOf();
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
 * The rows of the rule's distributions, their variants found by key among the flag's. Each is
 * stamped one millisecond after the one before it: distributions are read by creation, and their
 * order sets the buckets they take.
 */
function distributionRows(
  ns: string,
  flag: Pick<Flag, 'key' | 'variants'>,
  ruleId: string,
  distributions: readonly RuleDistributionInput[],
  at: string,
): Array<{ id: string; rule_id: string; variant_id: string; rollout: number; created_at: string; updated_at: string }> {
  const idOf = new Map(flag.variants.map((v) => [v.key, v.id]));
  const base = Date.parse(at);
  return distributions.map((d, i) => {
    const variantId = idOf.get(d.variantKey);
    if (variantId === undefined) throw invalidField(`distributions[${i}].variantKey`, `flag "${ns}/${flag.key}" has no variant "${d.variantKey}"`);
    const stamp = new Date(base + i).toISOString();
    return { id: randomUUID(), rule_id: ruleId, variant_id: variantId, rollout: d.rollout, created_at: stamp, updated_at: stamp };
  });
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

  /**
   * The rule and its distributions, if any, in one write: one change record, whose `after` carries
   * them. The flag is read with the revision bump and every row goes in one statement on PostgreSQL.
   */
  create(req: CreateRuleWithDistributions): Promise<Rule> {
    const ns = nsOf(req.namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at, read) => {
        const flag = read?.state.flags[0];
        const keys = await checkReferences(trx, ns, req.flagKey, req, () => Promise.resolve(flag));
        const window = mergeWindow({}, req);
        const id = randomUUID();
        const row = {
          id,
          namespace_key: ns,
          flag_key: req.flagKey,
          rank: req.rank,
          segment_operator: operatorFor(keys, req.segmentOperator),
          ...windowColumns(window),
          created_at: at,
          updated_at: at,
        };
        const distributions = distributionRows(ns, { key: req.flagKey, variants: flag?.variants ?? [] }, id, req.distributions ?? [], at);
        // A new rule has no steps to replace, only its window's to add.
        const steps = partStepRows({ namespaceKey: ns, flagKey: req.flagKey, id, noun: 'rule', window, ramp: undefined }, at, this.tx.actor());
        const rule = toRule(row as RuleModel, keys, distributions.map((d) => toDistribution(d as DistributionModel)));
        return {
          ...created(flagPartSubject('rule', req.flagKey, id), rule),
          lastWrites: [
            trx('rules').insert(row),
            trx('rule_segments').insert(keys.map((segmentKey, position) => ({ rule_id: id, namespace_key: ns, segment_key: segmentKey, position }))),
            ...(distributions.length === 0 ? [] : [trx('distributions').insert(distributions)]),
            ...(steps.length === 0 ? [] : [trx('flag_steps').insert(steps)]),
          ],
        };
      },
      { ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`), readFirst: { keys: [req.flagKey], only: 'flags' } },
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
