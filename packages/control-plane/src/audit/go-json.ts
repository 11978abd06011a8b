/**
 * JSON as Flipt's Go code writes it, so receivers (and signatures over the body) see the same
 * bytes a Flipt server would send.
 */

/**
 * `JSON.stringify` with the escapes Go's `json.Marshal` adds: `<`, `>`, `&`, U+2028 and U+2029
 * become `\u003c`… They can only occur inside strings, so a textual replace is safe.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The value with every object's keys in byte order, recursively.
 * COMPAT(flipt): internal/server/audit/events.go sends the payload through span attributes as a
 * JSON string and decodes it into `any`, so every sink marshals it as a Go map: keys sorted.
 */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
  return out;
}

/** A number as Go's `%v` prints a float64 (`strconv` 'g', shortest): exponent form from 1e+06 up and below 1e-04. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa = '', exponent = '0'] = n.toExponential().split('e');
  const exp = Number(exponent);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}
