/**
 * A rule's or rollout's window (`validFrom` inclusive, `validUntil` exclusive; either may be
 * unset): as the dialogs edit it (wall-clock values of datetime-local inputs in the user's zone),
 * as a request sends it (a bound left out when unset, `""` to clear one an update had), and where
 * an instant falls in it.
 */
import type { ValidityWindow } from '@ensign/core';
import { utcToWallTime, wallTimeToUtc } from './zoned-datetime.js';

/** The two inputs' values (`2026-11-23T10:00`, or `""` for an open end). */
export interface WindowDraft {
  from: string;
  until: string;
}

export const OPEN_WINDOW: WindowDraft = { from: '', until: '' };

/** The window a rule or rollout holds, without the rest of it (the service answers only the bounds that are set). */
export const windowOf = (item: ValidityWindow): ValidityWindow => ({
  ...(item.validFrom ? { validFrom: item.validFrom } : {}),
  ...(item.validUntil ? { validUntil: item.validUntil } : {}),
});

/** A stored window as the inputs show it in `timeZone`. */
export function windowDraft(window: ValidityWindow | undefined, timeZone: string): WindowDraft {
  const wall = (value: string | undefined) => (value === undefined || value === '' ? '' : (utcToWallTime(value, timeZone) ?? ''));
  return { from: wall(window?.validFrom), until: wall(window?.validUntil) };
}

/** The problems of a draft by input (`from`, `until`): an end that comes before its start. */
export function windowProblems(draft: WindowDraft, timeZone: string): { from?: string; until?: string } {
  const from = wallTimeToUtc(draft.from, timeZone);
  const until = wallTimeToUtc(draft.until, timeZone);
  if (from !== undefined && until !== undefined && Date.parse(until) <= Date.parse(from)) return { until: 'Valid until must be later than valid from.' };
  return {};
}

/**
 * The window's fields of a request: a bound set is sent as RFC 3339 UTC; an unset one is left out,
 * unless `stored` (the rule or rollout being edited) had it: then `""` clears it.
 */
export function windowInput(draft: WindowDraft, timeZone: string, stored?: ValidityWindow): { validFrom?: string; validUntil?: string } {
  const bound = (wall: string, had: string | undefined): string | undefined => wallTimeToUtc(wall, timeZone) ?? (had === undefined || had === '' ? undefined : '');
  const validFrom = bound(draft.from, stored?.validFrom);
  const validUntil = bound(draft.until, stored?.validUntil);
  return { ...(validFrom === undefined ? {} : { validFrom }), ...(validUntil === undefined ? {} : { validUntil }) };
}

/** Whether the draft differs from `stored` (an update then sends the window). */
export function windowChanged(draft: WindowDraft, timeZone: string, stored: ValidityWindow | undefined): boolean {
  const same = (wall: string, had: string | undefined) => {
    const sent = wallTimeToUtc(wall, timeZone);
    if (sent === undefined || had === undefined || had === '') return sent === undefined && (had === undefined || had === '');
    return Date.parse(sent) === Date.parse(had);
  };
  return !same(draft.from, stored?.validFrom) || !same(draft.until, stored?.validUntil);
}

/** Where `at` (epoch ms) falls: before the window opens, inside it, after it closed; `always` for a window with neither bound. */
export type WindowState = 'always' | 'before' | 'open' | 'after';

export function windowState(window: ValidityWindow, at: number): WindowState {
  const from = window.validFrom ? Date.parse(window.validFrom) : undefined;
  const until = window.validUntil ? Date.parse(window.validUntil) : undefined;
  if (from === undefined && until === undefined) return 'always';
  if (from !== undefined && at < from) return 'before';
  if (until !== undefined && at >= until) return 'after';
  return 'open';
}

export const hasWindow = (window: ValidityWindow): boolean => Boolean(window.validFrom) || Boolean(window.validUntil);
