/**
 * What to call the things a change names only by id: a distribution's variant, the rules of a
 * reorder, a rule's distributions. The names come from what the page knows now (the flag's
 * variants, its rules) and from the changes themselves, newest first.
 */

/** A name to show, by resource id. */
export type Labels = ReadonlyMap<string, string>;

const NO_LABELS: Labels = new Map();

/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The start of an id nobody has a name for: `66c23d3b…`. */
export const shortId = (id: string): string => (id.length > 9 ? `${id.slice(0, 8)}…` : id);

/** `beta`, `beta AND staff`: the segments of a rule or a segment rollout, whichever field holds them. */
export function segmentsOf(ref: Record<string, unknown>): string {
  const many = Array.isArray(ref['segmentKeys']) ? ref['segmentKeys'].filter((k): k is string => typeof k === 'string') : [];
  const keys = many.length > 0 ? many : [text(ref['segmentKey'])].filter((k) => k !== undefined);
  return keys.join(ref['segmentOperator'] === 'AND_SEGMENT_OPERATOR' ? ' AND ' : ' OR ');
}

/** What an id names (a distribution's variant, a rule), by its name when it is known. */
export const nameOf = (id: string, labels: Labels): string => labels.get(id) ?? shortId(id);

/**
 * What to call one resource in a list or a reference: a known name for its id, else its key, a
 * distribution's variant, a rule's segments, a rollout's threshold or segments, a constraint's property.
 */
export function labelOf(value: unknown, labels: Labels = NO_LABELS): string {
  if (!isRecord(value)) return String(value);
  const id = text(value['id']);
  const known = id === undefined ? undefined : labels.get(id);
  if (known !== undefined) return known;
  const key = text(value['key']);
  if (key !== undefined) return key;
  const variantId = text(value['variantId']);
  if (variantId !== undefined) return nameOf(variantId, labels);
  const threshold = value['threshold'];
  if (isRecord(threshold)) return `${String(threshold['percentage'])}%`;
  const segment = value['segment'];
  if (isRecord(segment)) return segmentsOf(segment);
  const segments = segmentsOf(value);
  if (segments !== '') return segments;
  const property = text(value['property']);
  if (property !== undefined) return property;
  return id === undefined ? JSON.stringify(value) : shortId(id);
}

/** Every object with an id inside `value`, itself first (a flag, then its variants). */
function collect(value: unknown, into: Array<Record<string, unknown>>): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, into);
    return;
  }
  if (!isRecord(value)) return;
  if (typeof value['id'] === 'string') into.push(value);
  for (const field of Object.values(value)) if (Array.isArray(field)) collect(field, into);
}

/**
 * Names by id for everything in `sources` (resources, lists of them, change records' before and
 * after), the first name of an id winning: pass what is current first, then the changes newest first.
 * Keyed resources (variants) are named first, so a distribution can be called by its variant's key.
 */
export function collectLabels(sources: readonly unknown[]): Map<string, string> {
  const found: Array<Record<string, unknown>> = [];
  for (const source of sources) collect(source, found);
  const labels = new Map<string, string>();
  const name = (keyed: boolean) => {
    for (const item of found) {
      const id = item['id'] as string;
      if (labels.has(id) || (text(item['key']) !== undefined) !== keyed) continue;
      labels.set(id, labelOf(item, labels));
    }
  };
  name(true);
  name(false);
  return labels;
}
