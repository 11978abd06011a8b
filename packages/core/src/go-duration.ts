/** Go-style durations (`30s`, `5m`, `1h30m`, `250ms`, `720h`): how Flipt's configuration and Ensign's query parameters spell them. */

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

const TERM = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Milliseconds of a Go duration, or undefined when the text is not one. `"0"` is the only
 * unit-less value Go accepts; negative durations are refused.
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
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return total;
}

/** Milliseconds as Go writes a short duration, without zero units: `720h`, `1h30m`, `90s`, `250ms`, `0`. */
export function formatGoDuration(ms: number): string {
  let rest = Math.round(ms);
  if (rest === 0) return '0';
  const parts: string[] = [];
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join('');
}
