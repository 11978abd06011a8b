/**
 * Settings → Preferences: how this browser shows things, kept in it for every tab. For now the time
 * zone of every absolute date and time in the UI: the browser's own (the default) or UTC.
 */
import { useEffect, useId, useState } from 'react';
import { PageHeader } from '../../components/page-header.js';
import { setTimeZoneChoice, useLocalTimeZone, useTimeZone, useTimeZoneChoice, useTimeZoneChoiceKept } from '../../hooks/time-zone.js';
import { formatInstant } from '../../lib/time-format.js';
import { choiceLabel, type TimeZoneChoice } from '../../lib/time-preference.js';
import './preferences-page.css';

const CHOICES: readonly TimeZoneChoice[] = ['local', 'utc'];

/** The current time, again every minute, for the example. */
function useMinute(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function PreferencesPage() {
  const hintId = useId();
  const choice = useTimeZoneChoice();
  const kept = useTimeZoneChoiceKept();
  const localZone = useLocalTimeZone();
  const zone = useTimeZone();
  const now = useMinute();
  return (
    <>
      <PageHeader title="Preferences" subtitle="How this browser shows the UI. Kept in this browser and applied to every open tab at once." />
      <section className="card" aria-labelledby="time-zone-title">
        <div className="card-header">
          <div>
            <h2 id="time-zone-title">Time zone</h2>
            <p>For every date and time the UI shows: changes in the history, a flag’s timeline, token expiry, date-time constraints, usage.</p>
          </div>
        </div>
        <div className="card-body">
          <fieldset className="fieldset preference-choices" aria-describedby={hintId}>
            <legend>Show times in</legend>
            {CHOICES.map((value) => (
              <label key={value} className="preference-choice">
                <input type="radio" name="time-zone" value={value} checked={choice === value} onChange={() => setTimeZoneChoice(value)} />
                <span>{choiceLabel(value, localZone)}</span>
              </label>
            ))}
          </fieldset>
          <p className="field-hint" id={hintId}>
            Now is <time dateTime={new Date(now).toISOString()}>{formatInstant(now, zone)}</time>. Date-time constraints are still stored in UTC.
          </p>
          {!kept && (
            <p className="notice" role="status">
              This browser did not let the UI store the choice, so it lasts only until this page is reloaded. To keep it, allow this site to store data (it may be a private window).
            </p>
          )}
        </div>
      </section>
    </>
  );
}
