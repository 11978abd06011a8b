/**
 * What a process counts: its evaluations (Flipt's `flipt_evaluations_*`, also what analytics
 * ships) and its HTTP requests and gRPC calls, each in one tally shared by every transport. With
 * both `metrics.enabled` and `analytics.enabled` false nothing is counted, so the evaluation path
 * does no counting; with metrics off and analytics on, evaluations are counted but /metrics
 * shows no line of them.
 */
import { EvaluationTally, registerEvaluationMetrics, registerRequestMetrics, RequestTally } from '@ensign/evaluator';
import type { Registry } from 'prom-client';
import type { EnsignConfig } from './config/config.schema.js';

export interface Counting {
  recorder?: EvaluationTally;
  requests?: RequestTally;
}

/** The tallies, those for /metrics registered on `registry` when given (the evaluator registers its own at its /metrics). */
export function countingOf(config: Pick<EnsignConfig, 'metrics' | 'analytics'>, registry?: Registry): Counting {
  if (config.metrics.enabled) {
    const recorder = new EvaluationTally();
    const requests = new RequestTally();
    if (registry !== undefined) {
      registerEvaluationMetrics(registry, recorder);
      registerRequestMetrics(registry, requests);
    }
    return { recorder, requests };
  }
  // Analytics alone: evaluations are counted to be shipped, never shown on /metrics.
  return config.analytics.enabled ? { recorder: new EvaluationTally() } : {};
}
