/**
 * The share of a rule's traffic per variant: one percentage input per variant, the running total,
 * the share that gets no variant, and what blocks saving (a total above 100). All at 0 is allowed:
 * the rule then matches without a variant. `locked` shows the split as it is, with the reason.
 */
import type { Variant } from '@ensign/core';
import { FieldError } from '../../components/field.js';
import type { Lock } from '../../hooks/permissions.js';
import type { ShareCheck } from '../../lib/distribution-share.js';
import { evenSplit } from '../../lib/distributions.js';
import { variantColour } from './rule-item.js';

export interface DistributionFieldsProps {
  variants: readonly Variant[];
  value: Readonly<Record<string, string>>;
  check: ShareCheck;
  onChange: (value: Record<string, string>) => void;
  locked?: Lock;
}

export function DistributionFields({ variants, value, check, onChange, locked }: DistributionFieldsProps) {
  if (variants.length === 0) {
    return (
      <p className="notice" role="note">
        The flag has no variants yet, so this rule will match without a variant. Add variants to split traffic between them.
      </p>
    );
  }
  const split = evenSplit(variants.length);
  return (
    <fieldset className="distribution-fields" disabled={locked?.on} title={locked?.hint}>
      <legend>Distribution</legend>
      <p className="field-hint">The share of the matching entities that gets each variant: up to 100% in all; the rest gets no variant.</p>
      <div className="distribution-rows">
        {variants.map((variant, index) => {
          const invalid = check.invalid.includes(variant.id) || (check.total > 100 && (value[variant.id] ?? '').trim() !== '' && (value[variant.id] ?? '').trim() !== '0');
          return (
            <div key={variant.id} className={invalid ? 'distribution-row field-invalid' : 'distribution-row'}>
              <span className="swatch" style={{ background: variantColour(index) }} aria-hidden="true" />
              <label htmlFor={`pct-${variant.id}`} className="mono">
                {variant.key}
              </label>
              <div className="percent-input">
                <input
                  id={`pct-${variant.id}`}
                  type="text"
                  inputMode="decimal"
                  aria-label={`${variant.key} percentage`}
                  aria-invalid={invalid}
                  value={value[variant.id] ?? ''}
                  onChange={(e) => onChange({ ...value, [variant.id]: e.target.value })}
                />
                <span aria-hidden="true">%</span>
              </div>
            </div>
          );
        })}
      </div>
      <div className="distribution-total">
        <output className={check.ok ? 'total-ok' : 'total-bad'} aria-live="polite">
          Total: {check.total}%
        </output>
        <button type="button" className="button button-small" onClick={() => onChange(Object.fromEntries(variants.map((v, i) => [v.id, String(split[i] ?? 0)])))}>
          Split evenly
        </button>
        <button type="button" className="button button-small button-ghost" onClick={() => onChange(Object.fromEntries(variants.map((v) => [v.id, '0'])))}>
          All to 0%
        </button>
      </div>
      <FieldError error={check.message} />
      <UnassignedNote check={check} />
    </fieldset>
  );
}

/** What the rest of the segment gets: nothing for a rule without distribution, else its unassigned share. */
function UnassignedNote({ check }: { check: ShareCheck }) {
  if (!check.ok) return null;
  if (check.none) return <p className="field-hint">No distribution: entities that match this rule get no variant (the rule still matches).</p>;
  if (check.unassigned === 0) return null;
  return (
    <p className="unassigned-share" role="status">
      {check.unassigned}% get no variant
    </p>
  );
}
