/**
 * Go's `unicode.IsSpace` / `strings.TrimSpace`, which Flipt applies to context values. JS `trim()`
 * differs: it keeps U+0085 (NEL) and strips U+FEFF, Go does the opposite.
 */

/** True iff the UTF-16 unit is a space by Go's `unicode.IsSpace` (all such runes are in the BMP). */
export function isGoSpace(c: number): boolean {
  if (c <= 0xa0) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** `strings.TrimSpace(s) == ""`, without allocating. */
export function isGoBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (!isGoSpace(s.charCodeAt(i))) return false;
  }
  return true;
}

/** `strings.TrimSpace(s)`; returns `s` itself when there is nothing to trim. */
export function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
