/**
 * The share of a rule's traffic per variant: one percentage input per variant, the running total,
 * the share that gets no variant, and what blocks saving (a total above 100). All at 0 is allowed:
 * the rule then matches without a variant. `locked` shows the split as it is, with the reason.
 */
import type { Variant } from '@ensign/core';
import { FieldError } from '../../components/field.js';
import type { Lock } from '../../hooks/permissions.js';
import type { ShareCheck } from '../../lib/distribution-share.js';
import { type DistributionRow, evenSplit } from '../../lib/distributions.js';
import { variantColour } from './rule-item.js';

export interface DistributionFieldsProps {
  variants: readonly Variant[];
  /** The fields: one per variant and one per further distribution of a variant (see `distributionRows`). */
  rows: readonly DistributionRow[];
  value: Readonly<Record<string, string>>;
  check: ShareCheck;
  onChange: (value: Record<string, string>) => void;
  locked?: Lock;
}

export function DistributionFields({ variants, rows, value, check, onChange, locked }: DistributionFieldsProps) {
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
        {rows.map((row) => {
          const index = variants.findIndex((v) => v.id === row.variantId);
          const variantKey = variants[index]?.key ?? row.variantId;
          const text = (value[row.slot] ?? '').trim();
          const invalid = check.invalid.includes(row.slot) || (check.total > 100 && text !== '' && text !== '0');
          const label = row.nth === 1 ? variantKey : `${variantKey} (distribution ${row.nth})`;
          return (
            <div key={row.slot} className={invalid ? 'distribution-row field-invalid' : 'distribution-row'}>
              <span className="swatch" style={{ background: variantColour(index) }} aria-hidden="true" />
              <label htmlFor={`pct-${row.slot}`} className="mono">
                {label}
              </label>
              <div className="percent-input">
                <input
                  id={`pct-${row.slot}`}
                  type="text"
                  inputMode="decimal"
                  aria-label={`${label} percentage`}
                  aria-invalid={invalid}
                  value={value[row.slot] ?? ''}
                  onChange={(e) => onChange({ ...value, [row.slot]: e.target.value })}
                />
                <span aria-hidden="true">%</span>
              </div>
              {row.nth > 1 && (
                <p className="field-hint distribution-extra">
                  A further distribution of {variantKey}, made through the API: it is kept as it is unless you change it; set it to 0% to remove it.
                </p>
              )}
            </div>
          );
        })}
      </div>
      <div className="distribution-total">
        <output className={check.ok ? 'total-ok' : 'total-bad'} aria-live="polite">
          Total: {check.total}%
        </output>
        <button type="button" className="button button-small" onClick={() => onChange({ ...Object.fromEntries(rows.map((row) => [row.slot, '0'])), ...Object.fromEntries(variants.map((v, i) => [v.id, String(split[i] ?? 0)])) })}>
          Split evenly
        </button>
        <button type="button" className="button button-small button-ghost" onClick={() => onChange(Object.fromEntries(rows.map((row) => [row.slot, '0'])))}>
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
