/** The flags list's usage controls: only the stale flags, and the window usage is judged over. */
import { useAddressChoice } from '../../hooks/address-choice.js';
import type { FlagQuery } from '../../lib/flag-list.js';
import { windowChoice, windowOptions } from '../../lib/usage-window.js';

export interface UsageFiltersProps {
  query: FlagQuery;
  /** The window the service used when the address names none (`720h`), once known. */
  serverWindow: string | undefined;
  /** The service counts no evaluations: nothing to filter by. */
  disabled: boolean;
  onChange: (changes: Partial<FlagQuery>) => void;
}

export function UsageFilters({ query, serverWindow, disabled, onChange }: UsageFiltersProps) {
  const [stale, setStale] = useAddressChoice(query.stale, (value) => onChange({ stale: value }));
  const fromAddress = query.window !== '' ? windowChoice(query.window) : serverWindow === undefined ? '' : windowChoice(serverWindow);
  const [window, setWindow] = useAddressChoice(fromAddress, (value) => onChange({ window: value }));
  return (
    <>
      <label className="stale-filter">
        <input type="checkbox" checked={stale} disabled={disabled} onChange={(e) => setStale(e.target.checked)} />
        Stale only
      </label>
      <select aria-label="Usage window" value={window} disabled={disabled} onChange={(e) => setWindow(e.target.value)}>
        {window === '' && <option value="">Usage window</option>}
        {windowOptions(window).map((option) => (
          <option key={option.window} value={option.window}>
            Last {option.label}
          </option>
        ))}
      </select>
    </>
  );
}
