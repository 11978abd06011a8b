/** The match type of a segment: every constraint must match (All) or any one (Any). */
import type { MatchType } from '@ensign/core';
import type { SelectHTMLAttributes } from 'react';

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & { value: MatchType; onChange: (value: MatchType) => void };

/** Receives the id and aria attributes of its `Field`. */
export function MatchTypeSelect({ value, onChange, ...rest }: Props) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.target.value as MatchType)}>
      <option value="ALL_MATCH_TYPE">All — every constraint must match</option>
      <option value="ANY_MATCH_TYPE">Any — at least one constraint must match</option>
    </select>
  );
}
