/** A token's expiry: a date picker with quick choices (7, 30, 90 days, never) beside it. */
import { useId } from 'react';
import { FieldError } from '../../components/field.js';
import { relativeTime } from '../../lib/token-list.js';
import { choiceOf, dayAfter, endOfDay, EXPIRY_CHOICES, localDay } from '../../lib/token-expiry.js';

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });

function hintOf(day: string, now: Date): string {
  if (day.trim() === '') return 'Never expires. Delete it when it is no longer needed.';
  const end = endOfDay(day);
  if (end === undefined) return 'Pick a day, or choose Never.';
  return `Works until the end of ${dayFormat.format(end)} (${relativeTime(end, now)}).`;
}

export function ExpiryField({ day, onChange, error }: { day: string; onChange: (day: string) => void; error: string | undefined }) {
  const id = useId();
  const now = new Date();
  const pressed = choiceOf(day, now);
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={id}>Expires on</label>
      <div className="expiry-row">
        <input
          id={id}
          type="date"
          value={day}
          min={localDay(now)}
          aria-invalid={error !== undefined}
          aria-describedby={`${id}-hint${error === undefined ? '' : ` ${id}-error`}`}
          onChange={(e) => onChange(e.target.value)}
        />
        <div className="expiry-choices" role="group" aria-label="Expire in">
          {EXPIRY_CHOICES.map((choice) => (
            <button
              key={choice.label}
              type="button"
              className="button button-small"
              aria-pressed={pressed === choice.label}
              onClick={() => onChange(choice.days === undefined ? '' : dayAfter(new Date(), choice.days))}
            >
              {choice.label}
            </button>
          ))}
        </div>
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        {hintOf(day, now)}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
