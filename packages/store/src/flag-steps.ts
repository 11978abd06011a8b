/**
 * The moments a flag's evaluation changes by itself, kept as `flag_steps` rows: schedules as users
 * set them, and the window edges and ramp steps of rules and rollouts, rewritten whenever their
 * rule or rollout is. Only moments still to come are kept pending: one already past when written
 * is in effect from the write itself.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Actor, RampStep, ValidityWindow } from '@ensign/core';
import type { FlagStepKind, FlagStepModel } from './models/flag-step.model.js';

/** What a rule or rollout is timed by, and where it belongs. */
export interface TimedPart {
  namespaceKey: string;
  flagKey: string;
  /** The rule's or rollout's id. */
  id: string;
  /** `rule` or `rollout`, for the step's description. */
  noun: 'rule' | 'rollout';
  window: ValidityWindow;
  ramp: readonly RampStep[] | undefined;
}

/** A step's own account of itself, stored as `detail`. */
export type StepDetail =
  | { noun: 'rule' | 'rollout'; edge: 'from' | 'until' }
  | { noun: 'rollout'; percentage: number };

/** Who set a step up, as stored with it. */
export const createdByColumns = (actor: Actor | undefined) => ({
  created_by_id: actor?.authenticationId ?? null,
  created_by_method: actor?.method ?? null,
  created_by_name: actor?.name?.slice(0, 255) ?? null,
});

/** The actor stored with a step, or undefined. */
export function createdByOf(row: FlagStepModel): Actor | undefined {
  if (row.created_by_method === null) return undefined;
  return {
    authenticationId: row.created_by_id ?? '',
    method: row.created_by_method,
    ...(row.created_by_name === null ? {} : { name: row.created_by_name }),
  };
}

function stepsOf(part: TimedPart): Array<{ at: string; kind: FlagStepKind; detail: StepDetail }> {
  const out: Array<{ at: string; kind: FlagStepKind; detail: StepDetail }> = [];
  if (part.window.validFrom) out.push({ at: part.window.validFrom, kind: 'window', detail: { noun: part.noun, edge: 'from' } });
  if (part.window.validUntil) out.push({ at: part.window.validUntil, kind: 'window', detail: { noun: part.noun, edge: 'until' } });
  for (const step of part.ramp ?? []) out.push({ at: step.at, kind: 'ramp', detail: { noun: 'rollout', percentage: step.percentage } });
  return out;
}

/** The pending `flag_steps` rows of a rule's or rollout's window edges and ramp steps still to come after `at`. */
export function partStepRows(part: TimedPart, at: string, actor: Actor | undefined): Array<Record<string, unknown>> {
  return stepsOf(part)
    .filter((step) => step.at > at)
    .map((step) => ({
      id: randomUUID(),
      namespace_key: part.namespaceKey,
      flag_key: part.flagKey,
      at: step.at,
      kind: step.kind,
      ref_id: part.id,
      enabled: null,
      detail: JSON.stringify(step.detail),
      status: 'pending' as const,
      ...createdByColumns(actor),
      created_at: at,
      applied_at: null,
    }));
}

/** Replaces the pending steps of a rule or rollout with those of its window and ramp still to come after `at`. */
export async function replacePartSteps(trx: Knex.Transaction, part: TimedPart, at: string, actor: Actor | undefined): Promise<void> {
  await dropPartSteps(trx, part.id);
  const rows = partStepRows(part, at, actor);
  if (rows.length > 0) await trx('flag_steps').insert(rows);
}

/** `replacePartSteps` as statements not yet sent, to go with others. */
export function partStepWrites(trx: Knex.Transaction, part: TimedPart, at: string, actor: Actor | undefined): Knex.QueryBuilder[] {
  const rows = partStepRows(part, at, actor);
  return [trx('flag_steps').where({ ref_id: part.id, status: 'pending' }).delete(), ...(rows.length === 0 ? [] : [trx('flag_steps').insert(rows)])];
}

/** Forgets the pending steps of a rule or rollout (deleted, or rewritten). */
export async function dropPartSteps(trx: Knex.Transaction, refId: string): Promise<void> {
  await trx('flag_steps').where({ ref_id: refId, status: 'pending' }).delete();
}
