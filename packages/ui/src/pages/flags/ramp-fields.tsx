/**
 * A threshold rollout's ramp: rows of a time (read in the user's time zone) and the percentage the
 * rollout takes from then on, each rising above the one before.
 */
import { useId } from 'react';
import { FieldError, type FieldMessage } from '../../components/field.js';
import { useRowFocus } from '../../hooks/row-focus.js';
import { useZoneHint } from '../../hooks/time-zone.js';
import { EMPTY_RAMP_ROW, type RampRow, type RampRowProblems } from '../../lib/ramp.js';

export interface RampFieldsProps {
  rows: RampRow[];
  onChange: (rows: RampRow[]) => void;
  /** Each row's problems, by index. */
  problems: readonly RampRowProblems[];
  /** A refusal about the ramp as a whole. */
  error: FieldMessage | undefined;
}

export function RampFields({ rows, onChange, problems, error }: RampFieldsProps) {
  const id = useId();
  const times = useRowFocus();
  const zone = useZoneHint();
  const update = (index: number, change: Partial<RampRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const add = () => {
    onChange([...rows, EMPTY_RAMP_ROW]);
    times.focusLater(rows.length);
  };
  const remove = (index: number) => {
    onChange(rows.filter((_, i) => i !== index));
    times.focusLater(Math.max(0, Math.min(index, rows.length - 2)));
  };

  return (
    <fieldset className={error === undefined ? 'fieldset ramp-fields' : 'fieldset ramp-fields field-invalid'}>
      <legend>Ramp</legend>
      {rows.length > 0 && (
        <ol className="ramp-rows">
          {rows.map((row, index) => {
            const problem = problems[index] ?? {};
            const step = index + 1;
            const errorId = (input: string) => `${id}-${index}-${input}`;
            return (
              <li key={index} className="ramp-row">
                <div className={problem.at === undefined ? 'field' : 'field field-invalid'}>
                  <input
                    ref={times.ref(index)}
                    type="datetime-local"
                    aria-label={`Step ${step} time`}
                    aria-invalid={problem.at !== undefined}
                    aria-describedby={problem.at === undefined ? undefined : errorId('at')}
                    value={row.at}
                    onChange={(e) => update(index, { at: e.target.value })}
                  />
                  <FieldError id={errorId('at')} error={problem.at} />
                </div>
                <div className={problem.percentage === undefined ? 'field' : 'field field-invalid'}>
                  <span className="percent-input">
                    <input
                      type="number"
                      min={0}
                      max={100}
                      step="any"
                      inputMode="decimal"
                      aria-label={`Step ${step} percentage`}
                      aria-invalid={problem.percentage !== undefined}
                      aria-describedby={problem.percentage === undefined ? undefined : errorId('percentage')}
                      value={row.percentage}
                      onChange={(e) => update(index, { percentage: e.target.value })}
                    />
                    <span aria-hidden="true">%</span>
                  </span>
                  <FieldError id={errorId('percentage')} error={problem.percentage} />
                </div>
                <button type="button" className="icon-button" aria-label={`Remove step ${step}`} onClick={() => remove(index)}>
                  ×
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <div className="list-footer">
        <button type="button" className="button button-small" onClick={add}>
          Add step
        </button>
        <p className="field-hint">From each step’s time on, the rollout takes its percentage. {zone}</p>
      </div>
      <FieldError error={error} />
    </fieldset>
  );
}
