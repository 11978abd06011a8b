/** What a change request would change, each record as the History tab shows a change, without who and when (not made yet). */
import type { AuditEntry, ChangeRecord } from '@ensign/core';
import { useMemo } from 'react';
import { labelsFor } from '../lib/change-summary.js';
import { ChangeEntry } from './change-entry.js';

export function ChangeDiffList({ ns, records, label = 'Changes' }: { ns: string; records: readonly ChangeRecord[]; label?: string }) {
  const entries = useMemo<AuditEntry[]>(() => records.map((record, i) => ({ ...record, id: String(i) })), [records]);
  const labels = useMemo(() => labelsFor([], entries), [entries]);
  return (
    <ol className="change-list" aria-label={label}>
      {entries.map((entry) => (
        <ChangeEntry key={entry.id} ns={ns} entry={entry} labels={labels} now={0} showOwner meta={false} />
      ))}
    </ol>
  );
}
