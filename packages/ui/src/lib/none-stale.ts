/**
 * Why "Stale only" leaves the flags list empty. A flag created inside the usage window is new and
 * never stale, so after a migration (every flag imported at once) the filter finds nothing for a
 * whole window: the list says how many flags are new and when the first of them can be judged.
 */
import type { FlagUsageStatus } from '@ensign/core';
import { formatInstant } from './time-format.js';
import { relativeTime } from './token-list.js';

/** What the usage listing says of one flag. */
export interface ListedUsage {
  status: FlagUsageStatus;
  /** RFC 3339. */
  createdAt: string;
}

export interface NoneStaleFacts {
  /** The flags the search and the other filters leave. */
  matching: number;
  /** Of those, the ones created inside the window: too young to judge. */
  fresh: number;
  /** Of those, the ones evaluated inside the window that served more than one value. */
  active: number;
  /** The new flag created first and when it stops being new (epoch ms); undefined when none is new. */
  first: { key: string; judgedFrom: number } | undefined;
}

/** The facts about `flagKeys` (the flags every filter but "Stale only" leaves) over a window of `windowMs`. */
export function noneStaleFacts(flagKeys: readonly string[], usage: ReadonlyMap<string, ListedUsage>, windowMs: number): NoneStaleFacts {
  let fresh = 0;
  let active = 0;
  let first: NoneStaleFacts['first'];
  for (const key of flagKeys) {
    const listed = usage.get(key);
    if (listed?.status === 'active') active++;
    if (listed?.status !== 'new') continue;
    fresh++;
    const judgedFrom = Date.parse(listed.createdAt) + windowMs;
    if (Number.isNaN(judgedFrom)) continue;
    if (first === undefined || judgedFrom < first.judgedFrom || (judgedFrom === first.judgedFrom && key < first.key)) first = { key, judgedFrom };
  }
  return { matching: flagKeys.length, fresh, active, first };
}

export interface NoneStaleWording {
  /** The window as a person says it ("30 days"). */
  windowText: string;
  /** Whether a search or another filter narrowed the list. */
  filtered: boolean;
  now: number;
  timeZone: string;
}

/** "All 57 flags", "3 of the 57 flags", "The flag": who a sentence is about. */
function flagsPhrase(count: number, of: number, filtered: boolean): string {
  const which = filtered ? (of === 1 ? ' that matches the search and filters' : ' that match the search and filters') : '';
  if (count === of) return of === 1 ? `The flag${which}` : `All ${of.toLocaleString('en')} flags${which}`;
  return `${count.toLocaleString('en')} of the ${of.toLocaleString('en')} flags${which}`;
}

/**
 * The empty list's title and its sentences, in plain words; undefined when the facts explain
 * nothing (no flag left to judge, or flags the listing does not know yet).
 */
export function noneStaleText(facts: NoneStaleFacts, wording: NoneStaleWording): { title: string; sentences: string[] } | undefined {
  const { matching, fresh, active, first } = facts;
  if (matching === 0 || fresh + active !== matching) return undefined;
  const within = `in the last ${wording.windowText}`;
  if (fresh === 0) {
    const who = flagsPhrase(matching, matching, wording.filtered);
    return { title: 'No stale flags', sentences: [`${who} ${matching === 1 ? 'was' : 'were'} evaluated ${within} and served more than one value, so none is stale.`] };
  }
  const sentences = [`${flagsPhrase(fresh, matching, wording.filtered)} ${fresh === 1 ? 'is' : 'are'} new: created ${within}, too young to judge.`];
  if (first !== undefined) {
    const when = `${formatInstant(first.judgedFrom, wording.timeZone)} (${relativeTime(new Date(first.judgedFrom), new Date(wording.now), 'en', Math.round)})`;
    sentences.push(fresh === 1 ? `“${first.key}” stops being new on ${when}.` : `The first of them, “${first.key}”, stops being new on ${when}.`);
  }
  if (active > 0) sentences.push(`The other ${active.toLocaleString('en')} ${active === 1 ? 'was' : 'were'} evaluated ${within} and served more than one value.`);
  return { title: 'No stale flags yet', sentences };
}
