/**
 * A threshold rollout's ramp: from each step's time on, its percentage replaces the threshold's.
 * The rows the rollout dialog edits (a wall-clock time in the user's zone and a percentage as
 * typed), checked as the service checks them (times strictly later, percentages rising above the
 * threshold's, at most 100), and the steps a request sends.
 */
import type { RampStep } from '@ensign/core';
import { parsePercent, percentText } from './distributions.js';
import { utcToWallTime, wallTimeToUtc } from './zoned-datetime.js';

/** One row of the editor: a datetime-local value and the percentage's text. */
export interface RampRow {
  at: string;
  percentage: string;
}

export const EMPTY_RAMP_ROW: RampRow = { at: '', percentage: '' };

/** What is wrong with a row, by input. */
export interface RampRowProblems {
  at?: string;
  percentage?: string;
}

const blank = (row: RampRow): boolean => row.at === '' && row.percentage.trim() === '';

/** The stored steps as rows in `timeZone`. */
export function rampRows(ramp: readonly RampStep[] | undefined, timeZone: string): RampRow[] {
  return (ramp ?? []).map((step) => ({ at: utcToWallTime(step.at, timeZone) ?? '', percentage: percentText(step.percentage) }));
}

/**
 * Each row's problems (blank rows are ignored): a missing time or percentage, a time not after the
 * row before, a percentage that does not rise above the one before (the first above `base`, the
 * threshold's percentage).
 */
export function rampProblems(rows: readonly RampRow[], base: number | undefined, timeZone: string): RampRowProblems[] {
  let previousAt: number | undefined;
  let previous = base;
  return rows.map((row) => {
    if (blank(row)) return {};
    const problems: RampRowProblems = {};
    const at = wallTimeToUtc(row.at, timeZone);
    if (at === undefined) problems.at = 'Enter a date and time.';
    else {
      const instant = Date.parse(at);
      if (previousAt !== undefined && instant <= previousAt) problems.at = 'Must be later than the step before.';
      previousAt = instant;
    }
    const percent = row.percentage.trim() === '' ? undefined : parsePercent(row.percentage);
    if (percent === undefined) problems.percentage = 'Enter a percentage from 0 to 100.';
    else {
      if (previous !== undefined && percent <= previous) problems.percentage = `Must be above ${percentText(previous)}%.`;
      previous = percent;
    }
    return problems;
  });
}

export const rampHasProblems = (problems: readonly RampRowProblems[]): boolean => problems.some((p) => p.at !== undefined || p.percentage !== undefined);

/** The steps of the rows that are not blank (call once `rampProblems` finds none). */
export function rampSteps(rows: readonly RampRow[], timeZone: string): RampStep[] {
  return rows.filter((row) => !blank(row)).map((row) => ({ at: wallTimeToUtc(row.at, timeZone) ?? row.at, percentage: parsePercent(row.percentage) ?? 0 }));
}

/**
 * The ramp a request sends: the steps when there are some; `[]` to clear the ramp `stored` had;
 * left out (undefined) when there was none and is none.
 */
export function rampInput(rows: readonly RampRow[], timeZone: string, stored: readonly RampStep[] | undefined): RampStep[] | undefined {
  const steps = rampSteps(rows, timeZone);
  if (steps.length > 0) return steps;
  return stored !== undefined && stored.length > 0 ? [] : undefined;
}

/**
 * The row and input a service field names (`threshold.ramp[1].at`: the second step sent, which is
 * the second row that is not blank).
 */
export function rampFieldOf(field: string | undefined, rows: readonly RampRow[]): { row: number; input: keyof RampRowProblems } | undefined {
  const match = field?.match(/^(?:threshold\.)?ramp\[(\d+)\]\.(at|percentage)$/);
  if (match === null || match === undefined) return undefined;
  const sent = rows.flatMap((row, i) => (blank(row) ? [] : [i]));
  const row = sent[Number(match[1])];
  return row === undefined ? undefined : { row, input: match[2] as keyof RampRowProblems };
}
