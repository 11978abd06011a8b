/** Go-style durations (`30s`, `5m`, `1h30m`, `250ms`), the spelling Flipt configs use. */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const TERM = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Parses a Go duration string into milliseconds; `undefined` when the text is not one.
 * `"0"` is the only unit-less value Go accepts; negative durations are refused here.
 */
export function parseGoDuration(text: string): number | undefined {
  const input = text.trim();
  if (input === '0') return 0;
  if (input === '') return undefined;
  let total = 0;
  TERM.lastIndex = 0;
  while (TERM.lastIndex < input.length) {
    const match = TERM.exec(input);
    if (match === null) return undefined;
    const [, amount, unit] = match;
    total += Number(amount) * (UNIT_MS[unit as string] as number);
  }
  return total;
}

/** Formats milliseconds the way the configuration reference shows defaults (`30s`, `1h30m`, `0`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0';
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join('');
}
