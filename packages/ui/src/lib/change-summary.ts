/**
 * The words around a change: what it did ("Created variant blue", "Reordered the rules"), who did
 * it, and the flag or segment it belongs to.
 */
import type { Actor, ChangeAction, ChangeRecord, ChangeResource } from '@ensign/core';
import { countNoun } from './count-noun.js';
import { collectLabels, isRecord, type Labels, nameOf, segmentsOf } from './change-labels.js';

/** The change types of a flag's history: the flag and what hangs off it. */
export const FLAG_HISTORY_TYPES: readonly ChangeResource[] = ['flag', 'variant', 'rule', 'distribution', 'rollout', 'schedule'];
/** The change types of a segment's history: the segment and its constraints. */
export const SEGMENT_HISTORY_TYPES: readonly ChangeResource[] = ['segment', 'constraint'];

const VERB: Readonly<Record<ChangeAction, string>> = { created: 'Created', updated: 'Updated', deleted: 'Deleted', reordered: 'Reordered', imported: 'Imported', stepped: 'Stepped' };

type Change = Pick<ChangeRecord, 'resource' | 'action' | 'before' | 'after'>;

const field = (value: unknown, name: string): string => (isRecord(value) && typeof value[name] === 'string' ? value[name] : '');

const count = (n: unknown, noun: string): string => countNoun(typeof n === 'number' ? n : 0, noun);

/** "Imported 2 flags and 1 segment, replacing everything": an import is one change on the namespace, its counts in `after.import`. */
function describeImport(after: unknown): string {
  const done = isRecord(after) ? after['import'] : undefined;
  if (!isRecord(done)) return 'Imported a document';
  const written = (what: string) => (isRecord(done[what]) ? (done[what] as Record<string, unknown>)['imported'] : 0);
  return `Imported ${count(written('flags'), 'flag')} and ${count(written('segments'), 'segment')}${done['drop'] === true ? ', replacing everything' : ''}`;
}

/**
 * A step taking effect, from the account its change carries in `after.step`: "Switched the flag on
 * as scheduled", "The rule for beta started to apply", "The threshold rollout rose to 50%"; one
 * taken late (the service was down at its time) says so.
 */
function describeStep(after: unknown, labels: Labels): string {
  const step = isRecord(after) ? after['step'] : undefined;
  if (!isRecord(step)) return 'A scheduled step took effect';
  const late = step['missed'] === true ? ' (late: the service was down at its time)' : '';
  const noun = step['noun'] === 'rule' ? 'rule' : 'rollout';
  const label = typeof step['refId'] === 'string' ? labels.get(step['refId']) : undefined;
  switch (step['kind']) {
    case 'schedule':
      return `Switched the flag ${step['enabled'] === true ? 'on' : 'off'} as scheduled${late}`;
    case 'window': {
      const subject = label === undefined ? `A ${noun}` : `The ${noun} for ${label}`;
      return `${subject} ${step['edge'] === 'until' ? 'stopped applying' : 'started to apply'}${late}`;
    }
    case 'ramp':
      return `The threshold rollout rose to ${String(step['percentage'])}%${late}`;
    default:
      return `A scheduled step took effect${late}`;
  }
}

/** "Scheduled switching the flag on", "Cancelled switching the flag off". */
function describeSchedule(change: Change): string {
  const subject = change.after ?? change.before;
  const state = isRecord(subject) && subject['enabled'] === true ? 'on' : 'off';
  if (change.action === 'created') return `Scheduled switching the flag ${state}`;
  if (isRecord(change.after) && change.after['status'] === 'cancelled') return `Cancelled switching the flag ${state}`;
  return `${VERB[change.action]} the schedule switching the flag ${state}`;
}

/** "Updated the flag", "Created variant blue", "Deleted the rule for beta", "Reordered the rules", "Imported 2 flags and 1 segment". */
export function describeChange(change: Change, labels: Labels = new Map()): string {
  const verb = VERB[change.action] ?? change.action;
  if (change.action === 'reordered') return `${verb} the ${change.resource}s`;
  if (change.action === 'imported') return describeImport(change.after);
  if (change.action === 'stepped') return describeStep(change.after, labels);
  if (change.resource === 'schedule') return describeSchedule(change);
  const subject = change.after ?? change.before;
  const segments = isRecord(subject) ? segmentsOf(subject) : '';
  switch (change.resource) {
    case 'variant':
      return `${verb} variant ${field(subject, 'key')}`.trimEnd();
    case 'constraint':
      return `${verb} the constraint on ${field(subject, 'property')}`.trimEnd();
    case 'rule':
      return segments === '' ? `${verb} a rule` : `${verb} the rule for ${segments}`;
    case 'rollout': {
      const segment = isRecord(subject) ? subject['segment'] : undefined;
      if (isRecord(segment)) return `${verb} the segment rollout for ${segmentsOf(segment)}`;
      return `${verb} the threshold rollout`;
    }
    case 'distribution': {
      const variantId = field(subject, 'variantId');
      const ruleId = field(subject, 'ruleId');
      const rule = labels.get(ruleId);
      return `${verb} the distribution to ${variantId === '' ? 'a variant' : nameOf(variantId, labels)}${rule === undefined ? '' : ` in the rule for ${rule}`}`;
    }
    default:
      return `${verb} the ${change.resource}`;
  }
}

/** Who made a change: the actor's name, else its authentication method, else "anonymous" (authentication off). */
export function actorLabel(actor: Actor | undefined): string {
  if (actor === undefined) return 'anonymous';
  if (actor.name !== undefined && actor.name !== '') return actor.name;
  return actor.method.replace(/^METHOD_/, '').toLowerCase();
}

/** The flag or segment a change belongs to (none for a namespace). */
export interface ChangeOwner {
  kind: 'flag' | 'segment';
  key: string;
}

const FLAG_PARTS = new Set<ChangeResource>(FLAG_HISTORY_TYPES);

/** The flag or segment a change is about or belongs to, for a link to it. */
export function ownerOf(change: Pick<ChangeRecord, 'resource' | 'key' | 'parentKey'>): ChangeOwner | undefined {
  if (change.resource === 'namespace') return undefined;
  const kind = FLAG_PARTS.has(change.resource) ? 'flag' : 'segment';
  const own = change.resource === 'flag' || change.resource === 'segment';
  return { kind, key: own ? change.key : (change.parentKey ?? change.key) };
}

/** Names by id for `changes` (newest first), those of `current` (the flag's variants, its rules) winning. */
export const labelsFor = (current: readonly unknown[], changes: readonly Change[]): Labels =>
  collectLabels([...current, ...changes.flatMap((change) => [change.after, change.before])]);
