/**
 * Checks of the time-bound parts (Ensign's extension): windows, ramps, prerequisites' shape and
 * schedules. What needs the stored state (the other bound of a window, the parent flags) is the
 * store's to check.
 */
import { invalidField } from '../errors.js';
import type { CreateSchedule, RolloutThresholdInput, ScheduleRef, WindowInput } from '../requests.js';
import type { Prerequisite, ValidityWindow } from '../resources.js';
import { requireValue, resolveNamespace } from './common.validation.js';

/** A window's bounds as stored after a write: a sent bound replaces (`""` clears), an unsent one stays. */
export function mergeWindow(stored: ValidityWindow, sent: WindowInput): ValidityWindow {
  const validFrom = sent.validFrom === undefined ? stored.validFrom : sent.validFrom;
  const validUntil = sent.validUntil === undefined ? stored.validUntil : sent.validUntil;
  return { ...(validFrom ? { validFrom } : {}), ...(validUntil ? { validUntil } : {}) };
}

/** `validFrom` must come before `validUntil` when both are set. */
export function checkWindow(window: ValidityWindow): void {
  if (window.validFrom !== undefined && window.validUntil !== undefined && window.validFrom >= window.validUntil) {
    throw invalidField('validUntil', `must be later than validFrom (${window.validFrom})`);
  }
}

/** A ramp's steps come at strictly later times and rise from the threshold's percentage to at most 100. */
export function checkRamp(threshold: RolloutThresholdInput, label = 'threshold.ramp'): void {
  const ramp = threshold.ramp ?? [];
  let previous = threshold.percentage;
  let previousAt = '';
  ramp.forEach((step, i) => {
    if (step.percentage > 100) throw invalidField(`${label}[${i}].percentage`, 'must be at most 100');
    if (step.percentage <= previous) {
      throw invalidField(`${label}[${i}].percentage`, `must rise: ${step.percentage} is not above ${previous}${i === 0 ? ' (threshold.percentage)' : ''}`);
    }
    if (step.at <= previousAt) throw invalidField(`${label}[${i}].at`, `must be later than the step before (${previousAt})`);
    previous = step.percentage;
    previousAt = step.at;
  });
}

/** Each parent named once, never the flag itself. */
export function checkPrerequisites(flagKey: string, prerequisites: readonly Prerequisite[] | undefined): void {
  const seen = new Set<string>();
  prerequisites?.forEach((p, i) => {
    requireValue(p.flagKey, `prerequisites[${i}].flagKey`);
    if (p.flagKey === flagKey) throw invalidField(`prerequisites[${i}].flagKey`, `a flag cannot require itself (${flagKey} → ${flagKey})`);
    if (seen.has(p.flagKey)) throw invalidField(`prerequisites[${i}].flagKey`, `names flag "${p.flagKey}" twice`);
    seen.add(p.flagKey);
  });
}

/** A schedule's time must be in the future at `now` (epoch ms). */
export function validateCreateSchedule(req: CreateSchedule, now: number): CreateSchedule {
  requireValue(req.flagKey, 'flagKey');
  requireValue(req.at, 'at');
  if (Date.parse(req.at) <= now) throw invalidField('at', `must be in the future; ${req.at} has passed (now ${new Date(now).toISOString()})`);
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}

export function validateScheduleRef(req: ScheduleRef): ScheduleRef {
  requireValue(req.flagKey, 'flagKey');
  requireValue(req.id, 'id');
  return { ...req, namespaceKey: resolveNamespace(req.namespaceKey) };
}
