/**
 * What a change did, as lines a person reads: `name: flag-x → Renamed`. An update lists only the
 * fields that changed (nested ones by path, `threshold.percentage: 30 → 40`; lists of resources by
 * their names, then what changed inside the ones kept); a creation lists the values created, a
 * deletion the values deleted, a reorder the old and the new order, an import what it wrote. Ids,
 * timestamps and the field naming what the resource belongs to are left out: the entry says that
 * already.
 */
import type { ChangeRecord } from '@ensign/core';
import { isRecord, labelOf, type Labels, nameOf } from './change-labels.js';

/** One line of a change. An update has both sides; a creation only `after`; a deletion only `before`. */
export interface DiffLine {
  path: string;
  before?: string;
  after?: string;
}

/** Fields no line shows: bookkeeping that every write touches or that never changes (who scheduled a change is its entry's author). */
const HIDDEN = new Set(['id', 'namespaceKey', 'createdAt', 'updatedAt', 'createdBy']);

/** The field naming the parent of a resource, by its kind or by the list field holding it. */
const PARENT_FIELD: Readonly<Record<string, string>> = {
  variant: 'flagKey',
  variants: 'flagKey',
  rule: 'flagKey',
  rules: 'flagKey',
  rollout: 'flagKey',
  rollouts: 'flagKey',
  distribution: 'ruleId',
  distributions: 'ruleId',
  constraint: 'segmentKey',
  constraints: 'segmentKey',
  schedule: 'flagKey',
};

const NO_LABELS: Labels = new Map();

/** How a missing value and an empty string read, so a page can show them as placeholders. */
export const NONE = '(none)';
export const EMPTY = '(empty)';

/** Is `field` shown, in an object that is a `scope` (a resource kind or the list field holding it)? */
const shown = (field: string, scope: string): boolean => !HIDDEN.has(field) && PARENT_FIELD[scope] !== field;

const child = (path: string, field: string): string => (path === '' ? field : `${path}.${field}`);

/** The identity of a resource object: its id, else its key. */
const identity = (value: Record<string, unknown>): unknown => value['id'] ?? value['key'];

const isEntity = (value: unknown): value is Record<string, unknown> => isRecord(value) && identity(value) !== undefined;

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0) || (isRecord(value) && Object.keys(value).length === 0);

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
  }
  return false;
}

/**
 * One value as text: `(none)` for a missing one, `(empty)` for an empty string, a list in
 * brackets, a resource by its name, a referenced id (`variantId`) by the name of what it names.
 */
export function formatValue(value: unknown, labels: Labels = NO_LABELS, field = ''): string {
  if (value === undefined || value === null) return NONE;
  if (value === '') return EMPTY;
  if (typeof value === 'string') return field.endsWith('Id') ? nameOf(value, labels) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => (isRecord(item) ? labelOf(item, labels) : formatValue(item, labels))).join(', ')}]`;
  if (isEntity(value)) return labelOf(value, labels);
  return JSON.stringify(value);
}

function diffInto(out: DiffLine[], path: string, field: string, before: unknown, after: unknown, labels: Labels): void {
  if (sameJson(before, after)) return;
  if (isRecord(before) && isRecord(after) && identity(before) === identity(after)) {
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (shown(name, field)) diffInto(out, child(path, name), name, before[name], after[name], labels);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && [...before, ...after].every(isEntity)) {
    diffEntities(out, path, field, before as Array<Record<string, unknown>>, after as Array<Record<string, unknown>>, labels);
    return;
  }
  out.push({ path, before: formatValue(before, labels, field), after: formatValue(after, labels, field) });
}

/** A list of resources: which ones it holds (when that changed), then what changed in each one kept. */
function diffEntities(out: DiffLine[], path: string, field: string, before: Array<Record<string, unknown>>, after: Array<Record<string, unknown>>, labels: Labels): void {
  const names = (list: Array<Record<string, unknown>>) => formatValue(list, labels);
  if (names(before) !== names(after)) out.push({ path, before: names(before), after: names(after) });
  for (const item of after) {
    const old = before.find((candidate) => identity(candidate) === identity(item));
    if (old !== undefined) diffInto(out, `${path}[${labelOf(item, labels)}]`, field, old, item, labels);
  }
}

/** The fields that differ between `before` and `after` of a resource of kind `scope`, by path. */
export function diffValues(before: unknown, after: unknown, labels: Labels = NO_LABELS, scope = ''): DiffLine[] {
  const out: DiffLine[] = [];
  diffInto(out, '', scope, before, after, labels);
  return out;
}

/** The operator between the segments of a rule or rollout says nothing while there is only one. */
const idleOperator = (name: string, value: Record<string, unknown>): boolean =>
  name === 'segmentOperator' && !(Array.isArray(value['segmentKeys']) && value['segmentKeys'].length > 1);

function listInto(out: DiffLine[], path: string, field: string, value: unknown, labels: Labels): void {
  if (isBlank(value)) return;
  if (isRecord(value) && (path === '' || !isEntity(value))) {
    for (const [name, inner] of Object.entries(value)) {
      if (shown(name, field) && !idleOperator(name, value)) listInto(out, child(path, name), name, inner, labels);
    }
    return;
  }
  out.push({ path, after: formatValue(value, labels, field) });
}

/** The values of a resource of kind `scope` worth reading, by path (empty ones left out). */
export function listValues(value: unknown, labels: Labels = NO_LABELS, scope = ''): DiffLine[] {
  const out: DiffLine[] = [];
  listInto(out, '', scope, value, labels);
  return out;
}

/** `[beta, staff]`: an order of ids, each by its name, else by its place in the old order (`#2`). */
function orderOf(ids: unknown, old: unknown, labels: Labels): string {
  const list = Array.isArray(ids) ? ids : [];
  const previous = Array.isArray(old) ? old : [];
  return `[${list.map((id) => labels.get(String(id)) ?? `#${previous.indexOf(id) + 1}`).join(', ')}]`;
}

/** `2 imported, 1 skipped, 3 deleted` from an import's counts of one kind. */
function countsText(counts: Record<string, unknown>): string {
  const n = (name: string): number => (typeof counts[name] === 'number' ? (counts[name] as number) : 0);
  return [`${n('imported')} imported`, ...(n('skipped') > 0 ? [`${n('skipped')} skipped`] : []), ...(n('removed') > 0 ? [`${n('removed')} deleted`] : [])].join(', ');
}

/** An import's lines: the namespace's own changes (all of it, when the import created it), then what was written. */
function importLines(before: unknown, after: unknown, labels: Labels): DiffLine[] {
  const { import: done, ...namespace } = isRecord(after) ? after : {};
  const lines = before === undefined ? listValues(namespace, labels, 'namespace') : diffValues(before, namespace, labels, 'namespace');
  if (!isRecord(done)) return lines;
  for (const what of ['flags', 'segments']) {
    const counts = done[what];
    if (isRecord(counts)) lines.push({ path: what, after: countsText(counts) });
  }
  if (done['drop'] === true) lines.push({ path: 'mode', after: 'replace everything' });
  else if (done['skipExisting'] === true) lines.push({ path: 'mode', after: 'skip existing' });
  return lines;
}

/** A step taking effect: what it changed of the flag (its own account, `after.step`, is the entry's title). */
function steppedLines(before: unknown, after: unknown, labels: Labels): DiffLine[] {
  const { step: _step, ...flag } = isRecord(after) ? after : {};
  return diffValues(before, flag, labels, 'flag');
}

/** The lines a change shows: what changed, what was created or deleted, the old and new order, or what an import wrote. */
export function changeLines(change: Pick<ChangeRecord, 'resource' | 'action' | 'before' | 'after'>, labels: Labels = NO_LABELS): DiffLine[] {
  switch (change.action) {
    case 'created':
      return listValues(change.after, labels, change.resource);
    case 'deleted':
      return listValues(change.before, labels, change.resource).map(({ path, after }) => ({ path, before: after ?? '' }));
    case 'reordered':
      return [{ path: 'order', before: orderOf(change.before, change.before, labels), after: orderOf(change.after, change.before, labels) }];
    case 'imported':
      return importLines(change.before, change.after, labels);
    case 'stepped':
      return steppedLines(change.before, change.after, labels);
    default:
      return diffValues(change.before, change.after, labels, change.resource);
  }
}

/** A line as one piece of text: `name: flag-x → Renamed`, `key: blue`. */
export function lineText(line: DiffLine): string {
  if (line.before !== undefined && line.after !== undefined) return `${line.path}: ${line.before} → ${line.after}`;
  return `${line.path}: ${line.after ?? line.before ?? ''}`;
}
