/** The Usage tab's chart: evaluations per step over the range (times in the chosen time zone), in a box of fixed height whatever it holds. */
import { lazy, Suspense, useId, useMemo } from 'react';
import type { EvaluationTimeline } from '../../../api/endpoints.js';
import { Loading } from '../../../components/status.js';
import { useTimeZone } from '../../../hooks/time-zone.js';
import { zoneAbbreviation } from '../../../lib/time-format.js';
import { rangeLabel, stepLabel, timelinePoints, type UsageRange } from '../../../lib/usage-range.js';

// Chart.js comes with the tab, not with the first page.
const EvaluationsChart = lazy(() => import('./evaluations-chart.js'));

export interface TimelineCardProps {
  range: UsageRange;
  timeline: EvaluationTimeline | undefined;
  /** All evaluations of the range. */
  total: number | undefined;
  /** Nothing has arrived yet (when it failed instead, the box stays empty under the error). */
  pending: boolean;
}

export function TimelineCard({ range, timeline, total, pending }: TimelineCardProps) {
  const title = useId();
  const zone = useTimeZone();
  const points = useMemo(() => (timeline === undefined ? undefined : timelinePoints(timeline, zone)), [timeline, zone]);
  const zoneName = zoneAbbreviation(Date.now(), zone);
  const empty = total === 0 && (points ?? []).every((p) => p.count === 0);
  return (
    <section className="card usage-timeline" aria-labelledby={title}>
      <div className="card-header">
        <div>
          <h2 id={title}>Evaluations</h2>
          <p>
            Last {rangeLabel(range)}, {stepLabel(range)}, times in {zoneName}
          </p>
        </div>
      </div>
      <div className="card-body">
        <div className="usage-chart">
          {points === undefined ? (
            pending && <Loading label="Loading evaluations…" />
          ) : (
            <Suspense fallback={<Loading label="Loading the chart…" />}>
              <EvaluationsChart points={points} label={`Evaluations ${stepLabel(range)} over the last ${rangeLabel(range)}: ${(total ?? 0).toLocaleString()} in all`} />
            </Suspense>
          )}
          {empty && <p className="usage-chart-empty">No evaluations in this range</p>}
        </div>
      </div>
    </section>
  );
}
