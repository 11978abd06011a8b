/**
 * The evaluation clock of a request that makes several engine calls (a legacy batch, OFREP's bulk
 * evaluation): read once, when the first timed flag asks, so every flag of the request is evaluated
 * at the same time. A request of one engine call hands the engine its settings' clock as it is.
 */
import type { EvaluationEnv } from '@ensign/engine';

export function clockReadOnce(clock: EvaluationEnv): EvaluationEnv {
  let now: number | undefined;
  return { now: () => (now ??= clock.now()) };
}
