/** One rollout as a card: who it applies to, the value they get, its ramp and window, and its buttons. */
import type { Rollout } from '@ensign/core';
import { roundPercent } from '../../lib/distributions.js';
import { operatorWord, segmentKeysOf } from '../../lib/segment-ref.js';
import { RankedItem } from './ranked-card.js';
import { SegmentList } from './rule-item.js';
import { RampSummary, WindowSummary } from './window-summary.js';
import type { RankedAbilities } from './use-ranked-card.js';
import type { RankedListControls } from './use-ranked-list.js';

export interface RolloutItemProps {
  ns: string;
  rollout: Rollout;
  index: number;
  knownSegments: ReadonlySet<string> | undefined;
  onEdit: () => void;
  onDelete: () => void;
  ranked: RankedListControls;
  can: RankedAbilities;
}

function ValueBadge({ value }: { value: boolean }) {
  return <span className={value ? 'badge badge-on' : 'badge badge-off'}>{String(value)}</span>;
}

export function RolloutItem({ ns, rollout, index, knownSegments, onEdit, onDelete, ranked, can }: RolloutItemProps) {
  const titleId = `rollout-${rollout.id}-title`;
  return (
    <RankedItem id={rollout.id} index={index} titleId={titleId} ranked={ranked} can={can} onEdit={onEdit} onDelete={onDelete}>
      <div className="ranked-title">
        <h3 id={titleId}>Rollout {index + 1}</h3>
        <span className="badge">{rollout.threshold !== undefined ? 'Threshold' : 'Segment'}</span>
      </div>
      {rollout.threshold !== undefined && (
        <p className="rollout-summary">
          <strong>{roundPercent(rollout.threshold.percentage)}%</strong> of entities <span aria-hidden="true">→</span> <ValueBadge value={rollout.threshold.value} />
          <span className="threshold-bar" aria-hidden="true">
            <span style={{ width: `${rollout.threshold.percentage}%` }} />
          </span>
        </p>
      )}
      {rollout.segment !== undefined && (
        <p className="rollout-summary">
          Entities in <SegmentList ns={ns} keys={segmentKeysOf(rollout.segment)} operator={operatorWord(rollout.segment.segmentOperator)} known={knownSegments} />{' '}
          <span aria-hidden="true">→</span> <ValueBadge value={rollout.segment.value} />
        </p>
      )}
      {rollout.threshold !== undefined && <RampSummary ramp={rollout.threshold.ramp} />}
      <WindowSummary window={rollout} />
      {rollout.description !== '' && <p className="muted rollout-description">{rollout.description}</p>}
    </RankedItem>
  );
}
