/**
 * Takes each flag step (a schedule, a window edge, a ramp step) when its time comes: the write
 * records it in the history and the audit sinks, and the pipeline publishes the flag, so Flipt's
 * client-side snapshots and the SDK streams follow. Evaluators do not wait for this: their
 * snapshots carry the steps, and they flip on their own clock. Steps missed while no control plane
 * ran are taken at start, in order, and marked as taken late. With several control planes each step
 * is claimed by exactly one.
 */
import type { DueStep } from '@ensign/store';
import type { Logger } from 'pino';
import { DueRunner } from './due-runner.js';

/** What the runner needs of the store. */
export interface StepStore {
  due(now: string, limit?: number): Promise<DueStep[]>;
  nextAt(): Promise<string | undefined>;
  apply(step: DueStep): Promise<boolean>;
}

export interface StepRunnerOptions {
  steps: StepStore;
  logger: Logger;
  /** The longest wait between two looks at the store: steps set through other servers are found within it. */
  pollMs: number;
  now?: () => number;
}

export class StepRunner extends DueRunner<DueStep> {
  constructor({ steps, ...options }: StepRunnerOptions) {
    super({
      ...options,
      work: steps,
      messages: {
        done: 'flag step taken',
        fields: (step) => ({ namespace: step.namespaceKey, flag: step.flagKey, step: step.id, at: step.at }),
        failing: 'taking flag steps failed; they are taken once the database answers',
        recovered: 'flag steps are taken again',
      },
    });
  }
}
