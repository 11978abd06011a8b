/** One rollout as a card: who it applies to, the value they get, and its buttons. */
import type { Rollout } from '@ensign/core';
import { roundPercent } from '../../lib/distributions.js';
import { operatorWord, segmentKeysOf } from '../../lib/segment-ref.js';
import { SegmentList } from './rule-item.js';

export interface RolloutItemProps {
  ns: string;
  rollout: Rollout;
  index: number;
  knownSegments: ReadonlySet<string> | undefined;
  onEdit: () => void;
  onDelete: () => void;
  itemProps: Record<string, unknown>;
  handleProps: Record<string, unknown>;
  moveUp: Record<string, unknown>;
  moveDown: Record<string, unknown>;
}

function ValueBadge({ value }: { value: boolean }) {
  return <span className={value ? 'badge badge-on' : 'badge badge-off'}>{String(value)}</span>;
}

export function RolloutItem({ ns, rollout, index, knownSegments, onEdit, onDelete, itemProps, handleProps, moveUp, moveDown }: RolloutItemProps) {
  const titleId = `rollout-${rollout.id}-title`;
  return (
    <li {...itemProps} aria-labelledby={titleId}>
      <div className="ranked-card">
        <span className="drag-handle" title="Drag to reorder" {...handleProps}>
          ⠿
        </span>
        <div className="ranked-main">
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
          {rollout.description !== '' && <p className="muted rollout-description">{rollout.description}</p>}
        </div>
        <div className="ranked-actions">
          <button type="button" className="icon-button" aria-label="Move up" title="Move up" {...moveUp}>
            ↑
          </button>
          <button type="button" className="icon-button" aria-label="Move down" title="Move down" {...moveDown}>
            ↓
          </button>
          <button type="button" className="button button-small" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="button button-small button-ghost danger-text" onClick={onDelete}>
            Delete
          </button>
        </div>
      </div>
    </li>
  );
}
