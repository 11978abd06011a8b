/** The Usage tab's controls: the range shown and whether it keeps refreshing. */
import { USAGE_RANGES, type UsageRange } from '../../../lib/usage-range.js';
import { USAGE_POLL_MS } from './use-flag-usage.js';

export interface UsageToolbarProps {
  range: UsageRange;
  onRange: (range: UsageRange) => void;
  paused: boolean;
  onPaused: (paused: boolean) => void;
}

export function UsageToolbar({ range, onRange, paused, onPaused }: UsageToolbarProps) {
  return (
    <div className="toolbar usage-toolbar">
      <label className="usage-range">
        <span>Range</span>
        <select value={range} onChange={(e) => onRange(e.target.value as UsageRange)}>
          {USAGE_RANGES.map((r) => (
            <option key={r.range} value={r.range}>
              Last {r.label}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button button-small" onClick={() => onPaused(!paused)}>
        {paused ? 'Resume updates' : 'Pause updates'}
      </button>
      <span className="muted usage-live" aria-live="polite">
        {paused ? 'Paused' : `Updating every ${USAGE_POLL_MS / 1000} seconds`}
      </span>
    </div>
  );
}
