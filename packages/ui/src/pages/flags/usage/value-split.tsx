/** What a flag served over a range: a row per value with its count, its share and a bar of that share. */
import { formatPercent, type SplitRow, valueLabel } from '../../../lib/usage-split.js';

function SplitItem({ row, colour, pending }: { row: SplitRow; colour: number; pending: boolean }) {
  const label = valueLabel(row.value);
  const count = pending ? '…' : row.count.toLocaleString();
  const percent = pending ? '' : formatPercent(row.percent);
  return (
    <li className="split-row" aria-label={pending ? label : `${label}: ${count} (${percent})`}>
      <span className={row.value === '' ? 'split-value muted' : 'split-value mono'}>{label}</span>
      <span className="split-count">{count}</span>
      <span className="split-percent muted">{percent}</span>
      <span className="split-bar" aria-hidden="true">
        <span style={{ width: `${row.percent}%`, background: `var(--variant-${colour % 6})` }} />
      </span>
    </li>
  );
}

/** `pending`: the counts are on their way; the rows stand in their places meanwhile. */
export function ValueSplit({ rows, pending = false }: { rows: readonly SplitRow[]; pending?: boolean }) {
  return (
    <ul className="split-list" aria-label="Values served" aria-busy={pending}>
      {rows.map((row, i) => (
        <SplitItem key={row.value} row={row} colour={i} pending={pending} />
      ))}
    </ul>
  );
}
