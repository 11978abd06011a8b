/**
 * A flag's steps in time order, each with its time in the user's time zone, what it does and where
 * it stands; "now" marked between the steps taken and those to come. A pending schedule can be
 * cancelled from its row.
 */
import type { FlagSchedule } from '@ensign/core';
import { Fragment } from 'react';
import { useTimeZone } from '../../../hooks/time-zone.js';
import { actorLabel } from '../../../lib/change-summary.js';
import { nowIndex, STATUS_LABEL, type StepStatus, stepKey, stepStatus, stepText, type TimelineStep } from '../../../lib/flag-timeline.js';
import { formatInstant } from '../../../lib/time-format.js';

const BADGE: Readonly<Record<StepStatus, string>> = { upcoming: 'badge badge-accent', applied: 'badge badge-on', cancelled: 'badge', due: 'badge badge-warning' };

export interface TimelineListProps {
  steps: readonly TimelineStep[];
  now: number;
  /** Cancels a pending schedule; absent when the session may not. */
  onCancel: ((schedule: FlagSchedule) => void) | undefined;
  /** The schedule being cancelled. */
  cancelling: string | undefined;
}

export function TimelineList({ steps, now, onCancel, cancelling }: TimelineListProps) {
  const zone = useTimeZone();
  const split = nowIndex(steps, now);
  const marker = (
    <li className="timeline-now" role="separator" aria-label="Now">
      <span>Now</span> <time dateTime={new Date(now).toISOString()}>{formatInstant(now, zone)}</time>
    </li>
  );
  return (
    <ol className="timeline" aria-label="Timeline">
      {steps.map((step, index) => {
        const status = stepStatus(step, now);
        const text = stepText(step, status);
        const when = formatInstant(step.at, zone);
        const schedule = step.kind === 'schedule' ? step.schedule : undefined;
        return (
          <Fragment key={stepKey(step)}>
            {index === split && marker}
            <li className={`timeline-step timeline-${status}`}>
              <time className="timeline-time" dateTime={step.at}>
                {when}
              </time>
              <span className="timeline-what">
                <span className="timeline-text">{text}</span> <span className={BADGE[status]}>{STATUS_LABEL[status]}</span>
                {schedule?.createdBy !== undefined && <span className="muted timeline-by"> · scheduled by {actorLabel(schedule.createdBy)}</span>}
              </span>
              {schedule?.status === 'pending' && onCancel !== undefined && (
                <button
                  type="button"
                  className="button button-small button-ghost danger-text"
                  aria-label={`Cancel: ${text.toLowerCase()} at ${when}`}
                  disabled={cancelling === schedule.id}
                  onClick={() => onCancel(schedule)}
                >
                  Cancel
                </button>
              )}
            </li>
          </Fragment>
        );
      })}
      {split === steps.length && marker}
    </ol>
  );
}
