/**
 * The `ensign.flags.v1` messages from the wire resources: RFC 3339 times as Timestamps, a bound or
 * an actor that is not set left absent, a schedule's status as the enum's name.
 */
import type { Flag, FlagSchedule, FlagScheduleStatus, Prerequisite, Rollout, Rule, ValidityWindow } from '@ensign/core';
import { toTimestamp } from '../proto-values.js';

const STATUS: Readonly<Record<FlagScheduleStatus, string>> = {
  pending: 'PENDING_SCHEDULE_STATUS',
  applied: 'APPLIED_SCHEDULE_STATUS',
  cancelled: 'CANCELLED_SCHEDULE_STATUS',
};

export function scheduleMessage(schedule: FlagSchedule) {
  const { createdBy, appliedAt } = schedule;
  return {
    id: schedule.id,
    namespaceKey: schedule.namespaceKey,
    flagKey: schedule.flagKey,
    at: toTimestamp(schedule.at),
    enabled: schedule.enabled,
    status: STATUS[schedule.status],
    createdAt: toTimestamp(schedule.createdAt),
    ...(appliedAt === undefined ? {} : { appliedAt: toTimestamp(appliedAt) }),
    ...(createdBy === undefined ? {} : { createdBy: { authenticationId: createdBy.authenticationId, method: createdBy.method, name: createdBy.name ?? '' } }),
  };
}

const prerequisiteMessage = (p: Prerequisite) => ({ flagKey: p.flagKey, ...(p.enabled === undefined ? {} : { enabled: p.enabled }), variants: p.variants ?? [] });

const windowMessage = (window: ValidityWindow) => ({
  ...(window.validFrom === undefined ? {} : { validFrom: toTimestamp(window.validFrom) }),
  ...(window.validUntil === undefined ? {} : { validUntil: toTimestamp(window.validUntil) }),
});

/** A flag's timing: its prerequisites, its rules and rollouts (by rank) with windows and ramps, and its pending schedules. */
export function flagTimingMessage(flag: Flag, rules: readonly Rule[], rollouts: readonly Rollout[], schedules: readonly FlagSchedule[]) {
  return {
    namespaceKey: flag.namespaceKey,
    flagKey: flag.key,
    prerequisites: (flag.prerequisites ?? []).map(prerequisiteMessage),
    rules: rules.map((rule) => ({ id: rule.id, rank: rule.rank, ...windowMessage(rule) })),
    rollouts: rollouts.map((rollout) => ({
      id: rollout.id,
      rank: rollout.rank,
      ...windowMessage(rollout),
      ramp: (rollout.threshold?.ramp ?? []).map((step) => ({ at: toTimestamp(step.at), percentage: step.percentage })),
    })),
    schedules: schedules.filter((s) => s.status === 'pending').map(scheduleMessage),
  };
}
