/**
 * What one top-level evaluation call shares across the flags it reaches: the time, read from the
 * environment once and only when a timed flag asks for it, and the walk through prerequisites.
 * Made only when a flag with prerequisites, or a batch with a timed flag, needs it.
 */
import type { FlagPlan } from './compiled-snapshot.js';
import type { EvaluationEnv } from './evaluation-types.js';
import { phaseAt } from './flag-plan.js';

/**
 * How many flags deep prerequisites are followed. The control plane refuses cycles, but a document
 * may still carry one: a walk that goes deeper than this (a cycle always does) is broken off, and
 * every prerequisite on the way back to the evaluated flag fails.
 */
export const MAX_PREREQUISITE_DEPTH = 32;

/** Parents checked for one top-level flag at most, so that a document of diamonds costs a bounded amount. */
const MAX_PARENT_CHECKS = 1024;

export class EvaluationCall {
  private time = 0;
  private timeRead = false;
  private depth = 0;
  private checks = 0;
  /** Set when the walk was broken off: no prerequisite of the flag being evaluated holds any more. */
  broken = false;

  constructor(private readonly env: EvaluationEnv) {}

  now(): number {
    if (!this.timeRead) {
      this.time = this.env.now();
      this.timeRead = true;
    }
    return this.time;
  }

  /** `flag` as it stands at the call's time. */
  current(flag: FlagPlan): FlagPlan {
    return flag.phases.length === 0 ? flag : phaseAt(flag, this.now());
  }

  /** A new top-level flag: a whole walk ahead. */
  begin(): void {
    this.checks = 0;
    this.broken = false;
  }

  /** Starts checking `flag`'s prerequisites; false, and the walk broken off, when too deep or over budget. */
  enter(flag: FlagPlan): boolean {
    if (this.depth >= MAX_PREREQUISITE_DEPTH || this.checks >= MAX_PARENT_CHECKS) {
      this.broken = true;
      return false;
    }
    this.depth++;
    this.checks += flag.prerequisites.length;
    return true;
  }

  leave(): void {
    this.depth--;
  }
}
