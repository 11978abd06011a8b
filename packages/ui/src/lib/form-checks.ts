/**
 * The checks a create or edit dialog runs before it sends anything, so that every problem shows
 * beside its field at once, in the same words as the service's refusals (`user-messages.ts`).
 */
import type { ConstraintDraft } from './constraint-draft.js';
import { valueKind } from './constraint-operators.js';

/** Problems by field name; a field without one is absent. */
export type Problems = Readonly<Record<string, string>>;

/** The pattern of namespace, flag and segment keys. */
export const KEY_PATTERN = /^[-_,A-Za-z0-9]+$/;
export const MAX_KEY_LENGTH = 255;
/** What `KEY_PATTERN` allows, in words. */
export const KEY_HINT = `Use English letters (a–z, A–Z), digits, hyphens (-), underscores (_) or commas; no spaces, dots or other characters; up to ${MAX_KEY_LENGTH} characters.`;

export function keyProblem(key: string): string | undefined {
  const trimmed = key.trim();
  if (trimmed === '') return 'Enter a key.';
  if (trimmed.length > MAX_KEY_LENGTH) return `Shorten the key to ${MAX_KEY_LENGTH} characters or fewer.`;
  if (!KEY_PATTERN.test(trimmed)) return 'Use only letters, digits, hyphens (-), underscores (_) and commas in the key.';
  return undefined;
}

export const requiredProblem = (value: string, what: string): string | undefined => (value.trim() === '' ? `Enter ${what}.` : undefined);

/** `{a: 'x', b: undefined}` → `{a: 'x'}`. */
export function problemsOf(entries: Readonly<Record<string, string | undefined>>): Problems {
  return Object.fromEntries(Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export const hasProblems = (problems: Problems): boolean => Object.keys(problems).length > 0;

/** The problems left once `field` is edited: its own no longer applies. */
export function withoutProblem(problems: Problems, field: string): Problems {
  if (!(field in problems)) return problems;
  const { [field]: _edited, ...rest } = problems;
  return rest;
}

/** The fields of `next` whose values differ from `old`'s: those the user just edited. */
export function changesOf<T extends object>(old: T, next: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(next).filter(([field, value]) => old[field as keyof T] !== value)) as Partial<T>;
}

/** A namespace, flag or segment: a name and (when it is new) a key. */
export function nameKeyProblems(form: { name: string; key: string }, checkKey = true): Problems {
  return problemsOf({ name: requiredProblem(form.name, 'a name'), key: checkKey ? keyProblem(form.key) : undefined });
}

/**
 * A constraint: a property, and a value when its operator needs one (a number for number
 * comparisons). `badNumber` is the browser's verdict on a number input it could not read.
 */
export function constraintProblems(draft: ConstraintDraft, badNumber = false): Problems {
  const kind = valueKind(draft.type, draft.operator);
  let value: string | undefined;
  if (kind === 'number') {
    const text = draft.text.trim();
    value = badNumber || (text !== '' && !Number.isFinite(Number(text))) ? 'Enter a number, such as 42 or 3.5.' : requiredProblem(text, 'a number');
  } else if (kind === 'text') value = draft.text === '' ? 'Enter a value.' : undefined;
  else if (kind === 'datetime') value = draft.wallTime === '' && draft.text.trim() === '' ? 'Enter a date and time.' : undefined;
  else if (kind === 'list') value = draft.items.every((item) => item.trim() === '') ? 'Enter at least one value.' : undefined;
  return problemsOf({ property: requiredProblem(draft.property, 'a property, such as plan or country'), value });
}
