/** When a rule or rollout applies, under its card: its bounds in the user's time zone, and whether now is outside them. */
import type { RampStep, ValidityWindow } from '@ensign/core';
import { useTimeZone } from '../../hooks/time-zone.js';
import { percentText } from '../../lib/distributions.js';
import { formatInstant } from '../../lib/time-format.js';
import { hasWindow, windowState } from '../../lib/validity-window.js';

function At({ at }: { at: string }) {
  const zone = useTimeZone();
  return <time dateTime={at}>{formatInstant(at, zone)}</time>;
}

export function WindowSummary({ window }: { window: ValidityWindow }) {
  if (!hasWindow(window)) return null;
  const state = windowState(window, Date.now());
  return (
    <p className="window-summary">
      <span className="muted">Applies</span>
      {window.validFrom && (
        <>
          {' '}
          <span className="muted">from</span> <At at={window.validFrom} />
        </>
      )}
      {window.validUntil && (
        <>
          {' '}
          <span className="muted">until</span> <At at={window.validUntil} />
        </>
      )}
      {state === 'before' && <span className="badge badge-warning">Not yet</span>}
      {state === 'after' && <span className="badge">Ended</span>}
    </p>
  );
}

/** A threshold rollout's ramp: each step's time and percentage, the ones taken marked. */
export function RampSummary({ ramp }: { ramp: readonly RampStep[] | undefined }) {
  if (ramp === undefined || ramp.length === 0) return null;
  const now = Date.now();
  return (
    <div className="ramp-summary">
      <span className="muted">Ramp</span>
      <ol aria-label="Ramp">
        {ramp.map((step) => (
          <li key={step.at} className={Date.parse(step.at) <= now ? 'ramp-step-taken' : undefined}>
            <strong>{percentText(step.percentage)}%</strong> <span className="muted">from</span> <At at={step.at} />
          </li>
        ))}
      </ol>
    </div>
  );
}
