/**
 * The `isoneof` / `isnotoneof` value lists, decoded as Go's `json.Unmarshal` into `[]string` /
 * `[]float64` would: `null` is an empty list, a `null` element is the zero value, any other type
 * is an error (and the constraint then never matches).
 */

/** The set of strings, or `undefined` if Go would fail to decode the value. */
export function parseStringList(value: string): Set<string> | undefined {
  const list = parseJsonArray(value);
  if (list === undefined) return undefined;
  const out = new Set<string>();
  for (const item of list) {
    if (item === null) out.add('');
    else if (typeof item === 'string') out.add(item);
    else return undefined;
  }
  return out;
}

/** The set of numbers, or `undefined` if Go would fail to decode the value (incl. overflow). */
export function parseNumberList(value: string): Set<number> | undefined {
  const list = parseJsonArray(value);
  if (list === undefined) return undefined;
  const out = new Set<number>();
  for (const item of list) {
    if (item === null) out.add(0);
    else if (typeof item === 'number' && Number.isFinite(item)) out.add(item);
    else return undefined;
  }
  return out;
}

function parseJsonArray(value: string): readonly unknown[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (parsed === null) return [];
  return Array.isArray(parsed) ? parsed : undefined;
}
