/** A constraint's value as the constraints table shows it: list items as chips, date-times with their reading in the chosen time zone. */
import type { Constraint } from '@ensign/core';
import { KeyBreaks, KeyText } from '../../components/key-text.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { decodeList } from '../../lib/constraint-draft.js';
import { valueKind } from '../../lib/constraint-operators.js';
import { formatReadable } from '../../lib/time-format.js';

export function ConstraintValueCell({ constraint }: { constraint: Constraint }) {
  const zone = useTimeZone();
  const kind = valueKind(constraint.type, constraint.operator);
  if (kind === 'none' || constraint.value === '') return <span className="muted" aria-label="No value">—</span>;
  if (kind === 'list') {
    const items = decodeList(constraint.value);
    return (
      <ul className="value-chips" aria-label={`${items.length} value${items.length === 1 ? '' : 's'}`}>
        {items.map((item, i) => (
          <li key={i} className="mono key-text">
            <KeyBreaks value={item} />
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
        {!Number.isNaN(at) && <span className="muted value-local">{formatReadable(at, zone)}</span>}
      </span>
    );
  }
  return <KeyText value={constraint.value} />;
}
