/**
 * The time ranges a flag's Usage tab shows, as Flipt's analytics screen has them: the range ends at
 * the current minute (seconds dropped) and the service answers one count per step, a step that
 * grows with the range.
 */

export type UsageRange = '30m' | '1h' | '4h' | '12h' | '1d';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const USAGE_RANGES: ReadonlyArray<{ range: UsageRange; label: string; ms: number }> = [
  { range: '30m', label: '30 minutes', ms: 30 * MINUTE },
  { range: '1h', label: '1 hour', ms: HOUR },
  { range: '4h', label: '4 hours', ms: 4 * HOUR },
  { range: '12h', label: '12 hours', ms: 12 * HOUR },
  { range: '1d', label: '1 day', ms: 24 * HOUR },
];

export const DEFAULT_USAGE_RANGE: UsageRange = '30m';

/** The range an address names (`?range=4h`), or the default for anything else. */
export function readUsageRange(value: string | null): UsageRange {
  return USAGE_RANGES.find((r) => r.range === value)?.range ?? DEFAULT_USAGE_RANGE;
}

const rangeOf = (range: UsageRange) => USAGE_RANGES.find((r) => r.range === range) ?? USAGE_RANGES[0]!;

export const rangeLabel = (range: UsageRange): string => rangeOf(range).label;

/** `from` and `to` of `range` ending now: `to` is the current minute with seconds and milliseconds zeroed. */
export function usageBounds(range: UsageRange, now: number): { from: string; to: string } {
  const to = new Date(now);
  to.setSeconds(0, 0);
  const from = new Date(to.getTime() - rangeOf(range).ms);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** The width of one count of the service's timeline over a range that long: 1, 5, 15 or 30 minutes. */
export function usageStepMs(rangeMs: number): number {
  if (rangeMs >= 24 * HOUR) return 30 * MINUTE;
  if (rangeMs >= 12 * HOUR) return 15 * MINUTE;
  if (rangeMs >= 4 * HOUR) return 5 * MINUTE;
  return MINUTE;
}

/** "per minute", "per 5 minutes": what one point of the timeline of `range` counts. */
export function stepLabel(range: UsageRange): string {
  const minutes = usageStepMs(rangeOf(range).ms) / MINUTE;
  return minutes === 1 ? 'per minute' : `per ${minutes} minutes`;
}

/** A point of the timeline as the chart draws it: its label on the time axis and its count. */
export interface TimelinePoint {
  at: string;
  label: string;
  count: number;
}

/**
 * The points of the service's timeline (`timestamps` and `values`, pair by pair), each labelled
 * with its time of day (`timeZone` is the browser's unless given); a value that is not a number
 * counts as none.
 */
export function timelinePoints(timeline: { timestamps: readonly string[]; values: readonly number[] }, timeZone?: string): TimelinePoint[] {
  const format = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, ...(timeZone === undefined ? {} : { timeZone }) });
  const points: TimelinePoint[] = [];
  timeline.timestamps.forEach((at, i) => {
    const time = Date.parse(at);
    if (Number.isNaN(time)) return;
    const value = timeline.values[i];
    points.push({ at, label: format.format(time), count: typeof value === 'number' && Number.isFinite(value) ? value : 0 });
  });
  return points;
}
