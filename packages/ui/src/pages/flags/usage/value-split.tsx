/** What a flag served over a range: a row per value (or reason) with its count, its share and a bar of that share. */
import { formatPercent, type SplitRow, valueLabel } from '../../../lib/usage-split.js';

interface SplitItemProps {
  row: SplitRow;
  label: string;
  /** A key is set in monospace; words (a reason, "No variant") are not. */
  words: boolean;
  colour: number;
  pending: boolean;
}

function SplitItem({ row, label, words, colour, pending }: SplitItemProps) {
  const count = pending ? '…' : row.count.toLocaleString();
  const percent = pending ? '' : formatPercent(row.percent);
  const look = row.value === '' ? 'split-value muted' : words ? 'split-value split-words' : 'split-value mono';
  return (
    <li className="split-row" aria-label={pending ? label : `${label}: ${count} (${percent})`}>
      <span className={look} title={label}>
        {label}
      </span>
      <span className="split-count">{count}</span>
      <span className="split-percent muted">{percent}</span>
      <span className="split-bar" aria-hidden="true">
        <span style={{ width: `${row.percent}%`, background: `var(--variant-${colour % 6})` }} />
      </span>
    </li>
  );
}

export interface ValueSplitProps {
  rows: readonly SplitRow[];
  /** The counts are on their way; the rows stand in their places meanwhile. */
  pending?: boolean;
  /** The list's accessible name. */
  name?: string;
  /** How a row's value reads; `valueLabel` (a key, or "No variant") unless told. */
  labelOf?: (value: string) => string;
  /** Whether the labels are words rather than keys. */
  words?: boolean;
}

export function ValueSplit({ rows, pending = false, name = 'Values served', labelOf = valueLabel, words = false }: ValueSplitProps) {
  return (
    <ul className="split-list" aria-label={name} aria-busy={pending}>
      {rows.map((row, i) => (
        <SplitItem key={row.value} row={row} label={labelOf(row.value)} words={words} colour={i} pending={pending} />
      ))}
    </ul>
  );
}
