/**
 * A flag's timeline: every time something about it changes on the clock, in time order. Its
 * scheduled changes (pending, applied, cancelled), the edges of its rules' and rollouts' windows
 * and its threshold rollouts' ramp steps, each said in words and placed before or after now.
 */
import type { FlagSchedule, Rollout, Rule } from '@ensign/core';
import { percentText } from './distributions.js';

/** A rule or rollout a step belongs to, by its position on the flag page (1-based). */
export interface StepOwner {
  kind: 'rule' | 'rollout';
  id: string;
  position: number;
}

export type TimelineStep =
  | { kind: 'schedule'; at: string; schedule: FlagSchedule }
  | { kind: 'window'; at: string; edge: 'from' | 'until'; owner: StepOwner }
  | { kind: 'ramp'; at: string; percentage: number; owner: StepOwner };

/**
 * Where a step stands: `upcoming`, `applied` (taken), `cancelled` (a schedule called off), or `due`
 * (a schedule whose time has come that the service has not applied yet).
 */
export type StepStatus = 'upcoming' | 'applied' | 'cancelled' | 'due';

const byRank = <T extends { rank: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.rank - b.rank);

const KIND_ORDER: Readonly<Record<TimelineStep['kind'], number>> = { schedule: 0, window: 1, ramp: 2 };
const ownerOrder = (step: TimelineStep): number => (step.kind === 'schedule' ? 0 : step.owner.position);

/** Every step of the flag, by time; at the same time schedules first, then windows, then ramps, each by position. */
export function flagTimeline(schedules: readonly FlagSchedule[], rules: readonly Rule[], rollouts: readonly Rollout[]): TimelineStep[] {
  const steps: TimelineStep[] = schedules.map((schedule) => ({ kind: 'schedule', at: schedule.at, schedule }));
  const owned = (kind: StepOwner['kind'], items: readonly (Rule | Rollout)[]) =>
    byRank(items).forEach((item, i) => {
      const owner: StepOwner = { kind, id: item.id, position: i + 1 };
      if (item.validFrom) steps.push({ kind: 'window', at: item.validFrom, edge: 'from', owner });
      if (item.validUntil) steps.push({ kind: 'window', at: item.validUntil, edge: 'until', owner });
      const ramp = 'threshold' in item ? (item.threshold?.ramp ?? []) : [];
      for (const step of ramp) steps.push({ kind: 'ramp', at: step.at, percentage: step.percentage, owner });
    });
  owned('rule', rules);
  owned('rollout', rollouts);
  return steps.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || ownerOrder(a) - ownerOrder(b));
}

export function stepStatus(step: TimelineStep, now: number): StepStatus {
  const past = Date.parse(step.at) <= now;
  if (step.kind !== 'schedule') return past ? 'applied' : 'upcoming';
  if (step.schedule.status === 'pending') return past ? 'due' : 'upcoming';
  return step.schedule.status;
}

export const STATUS_LABEL: Readonly<Record<StepStatus, string>> = { upcoming: 'Upcoming', applied: 'Applied', cancelled: 'Cancelled', due: 'Due' };

const ownerName = (owner: StepOwner): string => `${owner.kind === 'rule' ? 'Rule' : 'Rollout'} ${owner.position}`;

/**
 * The step in words, in the tense of its status: "Switches the flag on", "Switched the flag off",
 * "Rule 2 starts to apply", "Rollout 1 stopped applying", "Rollout 1 rises to 50%".
 */
export function stepText(step: TimelineStep, status: StepStatus): string {
  const done = status === 'applied';
  switch (step.kind) {
    case 'schedule': {
      const state = step.schedule.enabled ? 'on' : 'off';
      if (status === 'cancelled') return `Switch the flag ${state}`;
      return `${done ? 'Switched' : 'Switches'} the flag ${state}`;
    }
    case 'window':
      if (step.edge === 'from') return `${ownerName(step.owner)} ${done ? 'started' : 'starts'} to apply`;
      return `${ownerName(step.owner)} ${done ? 'stopped' : 'stops'} applying`;
    case 'ramp':
      return `${ownerName(step.owner)} ${done ? 'rose' : 'rises'} to ${percentText(step.percentage)}%`;
  }
}

/** A stable key of a step among the flag's. */
export function stepKey(step: TimelineStep): string {
  if (step.kind === 'schedule') return `schedule:${step.schedule.id}`;
  return `${step.kind}:${step.owner.id}:${step.kind === 'window' ? step.edge : step.at}`;
}

/** The index of the first step that has not come yet (the steps' length when all have): where "now" stands. */
export function nowIndex(steps: readonly TimelineStep[], now: number): number {
  const index = steps.findIndex((step) => Date.parse(step.at) > now);
  return index < 0 ? steps.length : index;
}
