/** A threshold rollout's percentage: a slider and a number input that follow each other. */
import { useId } from 'react';
import { FieldError } from '../../components/field.js';

export function ThresholdFields({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  const id = useId();
  const number = Number(value);
  const sliderValue = value.trim() !== '' && Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : 0;
  return (
    <div className={error === undefined ? 'field' : 'field field-invalid'}>
      <label htmlFor={`${id}-number`}>Percentage</label>
      <div className="threshold-inputs">
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          aria-label="Percentage slider"
          value={sliderValue}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <div className="percent-input">
          <input
            id={`${id}-number`}
            type="number"
            min={0}
            max={100}
            step="any"
            inputMode="decimal"
            value={value}
            aria-invalid={error !== undefined}
            aria-describedby={error === undefined ? `${id}-hint` : `${id}-error`}
            onChange={(e) => onChange(e.target.value)}
          />
          <span aria-hidden="true">%</span>
        </div>
      </div>
      <p className="field-hint" id={`${id}-hint`}>
        The share of entities, picked by a stable hash of their id, that get the value below.
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
