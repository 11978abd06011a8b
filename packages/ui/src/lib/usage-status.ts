/** What the usage listing's status of a flag means, as its badge and the badge's tooltip say it. */
import type { FlagUsageStatus } from '@ensign/core';

export const USAGE_STATUS_LABEL: Readonly<Record<FlagUsageStatus, string>> = {
  new: 'New',
  active: 'Active',
  inactive: 'Inactive',
  launched: 'Launched',
};

/** The badge's class: inactive and launched flags are the ones worth a look. */
export const USAGE_STATUS_TONE: Readonly<Record<FlagUsageStatus, string>> = {
  new: 'badge-accent',
  active: 'badge-on',
  inactive: 'badge-warning',
  launched: 'badge-launched',
};

/**
 * The tooltip of a status over a window of `windowText` ("30 days"); `value` is what a launched flag
 * served, `stale` whether the listing counts the flag as one to clean up.
 */
export function usageStatusExplanation(status: FlagUsageStatus, windowText: string, options: { value?: string | undefined; stale?: boolean } = {}): string {
  const within = `in the last ${windowText}`;
  let text: string;
  switch (status) {
    case 'new':
      text = `New: created ${within}, so too young to judge.`;
      break;
    case 'active':
      text = `Active: evaluated ${within}, serving more than one value.`;
      break;
    case 'inactive':
      text = `Inactive: not evaluated ${within}.`;
      break;
    case 'launched':
      text = `Launched: served ${options.value === undefined ? 'one value' : `"${options.value === '' ? 'no variant' : options.value}"`} to every evaluation ${within}.`;
      break;
  }
  return options.stale === true ? `${text} Stale: a candidate for removal.` : text;
}
