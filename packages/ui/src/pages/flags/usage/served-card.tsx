/** The Usage tab's side: how many evaluations the range holds, when the last one was, the values served and why. */
import type { FlagType } from '@ensign/core';
import { useId, useMemo } from 'react';
import type { FlagUsageSummary } from '../../../api/endpoints.js';
import { kindOfFlag, reasonText } from '../../../lib/evaluation-console.js';
import { knownReasons, knownValues, valueSplit } from '../../../lib/usage-split.js';
import { LastEvaluated } from '../last-evaluated.js';
import { ValueSplit } from './value-split.js';

export interface ServedCardProps {
  flag: { type: FlagType; variants?: ReadonlyArray<{ key: string }>; defaultVariant?: unknown };
  /** The range the counts are of, as the header says it ("30 minutes"). */
  rangeText: string;
  summary: FlagUsageSummary | undefined;
  now: number;
}

export function ServedCard({ flag, rangeText, summary, now }: ServedCardProps) {
  const title = useId();
  const known = useMemo(() => knownValues(flag), [flag]);
  const rows = useMemo(() => valueSplit(summary?.values ?? [], known), [summary, known]);
  const reasons = useMemo(
    () => valueSplit((summary?.reasons ?? []).map(({ reason, count }) => ({ value: reason, count })), knownReasons(flag)),
    [summary, flag],
  );
  const kind = kindOfFlag(flag.type);
  return (
    <section className="card usage-served" aria-labelledby={title}>
      <div className="card-header">
        <div>
          <h2 id={title}>Served</h2>
          <p>Values and reasons in the last {rangeText}</p>
        </div>
      </div>
      <div className="card-body">
        <dl className="usage-facts">
          <div>
            <dt>Evaluations</dt>
            <dd className="usage-total">{summary === undefined ? '…' : summary.evaluations.toLocaleString()}</dd>
          </div>
          <div>
            <dt>Last evaluated</dt>
            <dd>{summary === undefined ? '…' : <LastEvaluated at={summary.lastEvaluatedAt} now={now} />}</dd>
          </div>
        </dl>
        {rows.length === 0 ? <p className="muted">This flag has no variants to serve.</p> : <ValueSplit rows={rows} pending={summary === undefined} />}
        <h3 className="usage-subhead">By reason</h3>
        <ValueSplit rows={reasons} pending={summary === undefined} name="Reasons" labelOf={(reason) => reasonText(kind, reason)} words />
      </div>
    </section>
  );
}
