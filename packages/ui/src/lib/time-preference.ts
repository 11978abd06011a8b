/**
 * Whether the UI shows absolute times in the browser's own time zone or in UTC (Flipt's
 * Preferences → Timezone): the stored choice, read defensively, and the IANA zone it stands for.
 */

export type TimeZoneChoice = 'local' | 'utc';

/** Where the choice is kept (localStorage, so every tab of this browser shares it). */
export const TIME_ZONE_STORAGE_KEY = 'ensign.timeZone';

/** Local time until the user picks UTC. */
export const DEFAULT_TIME_ZONE_CHOICE: TimeZoneChoice = 'local';

/** The choice a stored value stands for; anything else (nothing stored, an old or hand-edited value) is the default. */
export function readTimeZoneChoice(stored: string | null | undefined): TimeZoneChoice {
  return stored === 'utc' || stored === 'local' ? stored : DEFAULT_TIME_ZONE_CHOICE;
}

/** The IANA zone to show times in: `UTC`, or the browser's own zone for local time. */
export function zoneOfChoice(choice: TimeZoneChoice, localZone: string): string {
  return choice === 'utc' ? 'UTC' : localZone;
}

/** The browser's own time zone (`Europe/Berlin`), or `UTC` where it cannot tell. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** How the Preferences page names a choice: `Local time (Europe/Berlin)` or `UTC`. */
export function choiceLabel(choice: TimeZoneChoice, localZone: string): string {
  return choice === 'utc' ? 'UTC' : `Local time (${localZone})`;
}

/** What a time input says it is read in: `Times are in UTC.` or `Times are in Europe/Berlin (this browser's time zone).` */
export function zoneHint(choice: TimeZoneChoice, localZone: string): string {
  return choice === 'utc' || localZone === 'UTC' ? 'Times are in UTC.' : `Times are in ${localZone} (this browser’s time zone).`;
}
