/** A constraint's value as the constraints table shows it: list items as chips, date-times with their local reading. */
import type { Constraint } from '@ensign/core';
import { decodeList } from '../../lib/constraint-draft.js';
import { valueKind } from '../../lib/constraint-operators.js';

export function ConstraintValueCell({ constraint }: { constraint: Constraint }) {
  const kind = valueKind(constraint.type, constraint.operator);
  if (kind === 'none' || constraint.value === '') return <span className="muted" aria-label="No value">—</span>;
  if (kind === 'list') {
    const items = decodeList(constraint.value);
    return (
      <ul className="value-chips" aria-label={`${items.length} value${items.length === 1 ? '' : 's'}`}>
        {items.map((item, i) => (
          <li key={i} className="mono">
            {item}
          </li>
        ))}
      </ul>
    );
  }
  if (kind === 'datetime') {
    const at = Date.parse(constraint.value);
    return (
      <span>
        <code>{constraint.value}</code>
        {!Number.isNaN(at) && <span className="muted value-local">{new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</span>}
      </span>
    );
  }
  return <code className="value-text">{constraint.value}</code>;
}
