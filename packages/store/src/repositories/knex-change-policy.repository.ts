import { invalidField, notFound } from '@ensign/core';
import { updated } from '../change-draft.js';
import { namespaceSubject } from '../change-subjects.js';
import { TOUCHES_NOTHING } from '../snapshot-effect.js';
import { nsOf } from '../sql-util.js';
import type { Transactor } from '../transactor.js';

/** A namespace's change policy: how many approvals its change requests need; 0 is unprotected. */
export interface ChangePolicy {
  namespaceKey: string;
  requiredApprovals: number;
}

/** Most approvals a policy may ask for. */
const MAX_APPROVALS = 10;

/** Change policies, one per namespace; setting one is a write recorded on the namespace. */
export class KnexChangePolicyRepository {
  constructor(private readonly tx: Transactor) {}

  get(namespaceKey: string): Promise<ChangePolicy> {
    const ns = nsOf(namespaceKey);
    return this.tx.read(async (db) => {
      if ((await db('namespaces').where({ key: ns }).first('key')) === undefined) throw notFound(`namespace "${ns}" not found`);
      const row = (await db('change_policies').where({ namespace_key: ns }).first('required_approvals')) as { required_approvals: number } | undefined;
      return { namespaceKey: ns, requiredApprovals: Number(row?.required_approvals ?? 0) };
    });
  }

  /** Approvals required in `namespaceKey` (0 when unprotected or unknown): read on every direct write. */
  async requiredApprovals(namespaceKey: string): Promise<number> {
    const row = await this.tx.read((db) => db('change_policies').where({ namespace_key: nsOf(namespaceKey) }).first('required_approvals'));
    return Number((row as { required_approvals?: number } | undefined)?.required_approvals ?? 0);
  }

  /** Sets the policy; recorded in the history as an update of the namespace (before and after). */
  update(namespaceKey: string, requiredApprovals: number): Promise<ChangePolicy> {
    if (!Number.isInteger(requiredApprovals) || requiredApprovals < 0 || requiredApprovals > MAX_APPROVALS) {
      throw invalidField('requiredApprovals', `must be a whole number from 0 (unprotected) to ${MAX_APPROVALS}`);
    }
    const ns = nsOf(namespaceKey);
    return this.tx.write(
      ns,
      async (trx, at) => {
        const row = (await trx('change_policies').where({ namespace_key: ns }).first('required_approvals')) as { required_approvals: number } | undefined;
        const before: ChangePolicy = { namespaceKey: ns, requiredApprovals: Number(row?.required_approvals ?? 0) };
        if (row === undefined) await trx('change_policies').insert({ namespace_key: ns, required_approvals: requiredApprovals, updated_at: at });
        else await trx('change_policies').where({ namespace_key: ns }).update({ required_approvals: requiredApprovals, updated_at: at });
        const after: ChangePolicy = { namespaceKey: ns, requiredApprovals };
        const outcome = updated(namespaceSubject(ns, TOUCHES_NOTHING), { changePolicy: before }, { changePolicy: after });
        return { value: after, change: outcome.change };
      },
      { ifNamespaceMissing: () => notFound(`namespace "${ns}" not found`) },
    );
  }
}
