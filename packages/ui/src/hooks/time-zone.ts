/**
 * The time zone the UI shows absolute times in, as the user chose it on Settings → Preferences:
 * kept in localStorage, so a reload and every tab of this browser see it, and a change in one tab
 * (a `storage` event in the others) re-renders every time shown in all of them.
 */
import { useSyncExternalStore } from 'react';
import { browserTimeZone, readTimeZoneChoice, TIME_ZONE_STORAGE_KEY, type TimeZoneChoice, zoneHint, zoneOfChoice } from '../lib/time-preference.js';

/** Components of this tab to tell when the choice changes here (a `storage` event only reaches the other tabs). */
const listeners = new Set<() => void>();
/** The choice the browser refused to store (a private window, a full quota): it holds for this page only. */
let unsaved: TimeZoneChoice | undefined;

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === TIME_ZONE_STORAGE_KEY || event.key === null) onChange();
  };
  listeners.add(onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

function storedChoice(): TimeZoneChoice {
  if (unsaved !== undefined) return unsaved;
  try {
    return readTimeZoneChoice(window.localStorage.getItem(TIME_ZONE_STORAGE_KEY));
  } catch {
    return readTimeZoneChoice(null);
  }
}

/** Keeps `choice` for this browser and updates every time shown in this tab (other tabs follow the storage event). */
export function setTimeZoneChoice(choice: TimeZoneChoice): void {
  try {
    window.localStorage.setItem(TIME_ZONE_STORAGE_KEY, choice);
    unsaved = undefined;
  } catch {
    unsaved = choice;
  }
  for (const listener of listeners) listener();
}

/** False once the browser refused to store the choice: it then holds until the page is reloaded. */
export function useTimeZoneChoiceKept(): boolean {
  return useSyncExternalStore(subscribe, () => unsaved === undefined);
}

/** `local` or `utc`, as chosen. */
export function useTimeZoneChoice(): TimeZoneChoice {
  return useSyncExternalStore(subscribe, storedChoice);
}

let localZone: string | undefined;

/** The browser's own IANA zone (`Europe/Berlin`), read once per page. */
export function useLocalTimeZone(): string {
  localZone ??= browserTimeZone();
  return localZone;
}

/** The IANA zone to show times in: `UTC`, or the browser's own. */
export function useTimeZone(): string {
  return zoneOfChoice(useTimeZoneChoice(), useLocalTimeZone());
}

/** The hint of a time input: which zone what is typed is read in. */
export function useZoneHint(): string {
  return zoneHint(useTimeZoneChoice(), useLocalTimeZone());
}
