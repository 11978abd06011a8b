/**
 * The window the flags list judges usage over ("not evaluated in the last 30 days"): a Go duration
 * as the service takes it (`720h`, `90m`, `2s`), chosen from a few or given in the address.
 */
import { parseGoDuration as parseDuration } from '@ensign/core';

/** The length of a Go duration (`"720h"`, `"1h30m"`, `"720h0m0s"`) in milliseconds, or undefined when it is not one or not positive. */
export function parseGoDuration(text: string): number | undefined {
  const ms = parseDuration(text);
  return ms !== undefined && ms > 0 ? ms : undefined;
}

export const USAGE_WINDOWS: ReadonlyArray<{ window: string; label: string }> = [
  { window: '168h', label: '7 days' },
  { window: '720h', label: '30 days' },
  { window: '2160h', label: '90 days' },
];

const PARTS: ReadonlyArray<readonly [string, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "30 days", "1 hour 30 minutes", "2 seconds": a duration as a person says it (to the second). */
export function describeDuration(ms: number): string {
  let rest = Math.round(ms / 1000) * 1000;
  if (rest <= 0) return `${Math.max(0, Math.round(ms))} ms`;
  const words: string[] = [];
  for (const [unit, size] of PARTS) {
    const amount = Math.floor(rest / size);
    if (amount === 0) continue;
    words.push(`${amount} ${unit}${amount === 1 ? '' : 's'}`);
    rest -= amount * size;
  }
  return words.join(' ');
}

/** A window as the selector shows it; what is not a duration is shown as given. */
export function windowLabel(window: string): string {
  const ms = parseGoDuration(window);
  return ms === undefined ? window : describeDuration(ms);
}

/** The selector's value for `window`: the preset of the same length (`720h0m0s` is `720h`), or the window itself. */
export function windowChoice(window: string): string {
  const ms = parseGoDuration(window);
  return USAGE_WINDOWS.find((w) => parseGoDuration(w.window) === ms)?.window ?? window;
}

/** The selector's options: the presets, and `current` when it is none of them. */
export function windowOptions(current: string | undefined): Array<{ window: string; label: string }> {
  if (current === undefined || current === '' || USAGE_WINDOWS.some((w) => w.window === windowChoice(current))) return [...USAGE_WINDOWS];
  return [...USAGE_WINDOWS, { window: current, label: windowLabel(current) }].sort((a, b) => (parseGoDuration(a.window) ?? 0) - (parseGoDuration(b.window) ?? 0));
}
