import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { CreateRule, OrderItems, Page, PageRequest, Rule, SegmentOperator, UpdateRule } from '@ensign/core';
import { checkWindow, invalid, mergeWindow, notFound } from '@ensign/core';
import { created, updated } from '../change-draft.js';
import { replacePartSteps } from '../flag-steps.js';
import { windowColumns } from '../loaders/window.js';
import { flagPartSubject } from '../change-subjects.js';
import { loadRule, withRuleParts } from '../loaders/rule.loader.js';
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

  create(req: CreateRule): Promise<Rule> {
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
