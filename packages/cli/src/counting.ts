/**
 * What a process counts for `/metrics`: its evaluations (Flipt's `flipt_evaluations_*`) and its
 * HTTP requests and gRPC calls, each in one tally shared by every transport; nothing at all when
 * `metrics.enabled` is false, so the evaluation path then does no counting.
 */
import { EvaluationTally, registerEvaluationMetrics, registerRequestMetrics, RequestTally } from '@ensign/evaluator';
import type { Registry } from 'prom-client';
import type { EnsignConfig } from './config/config.schema.js';

export interface Counting {
  recorder?: EvaluationTally;
  requests?: RequestTally;
}

/** The tallies, registered on `registry` when given (the evaluator registers its own at its /metrics). */
export function countingOf(config: Pick<EnsignConfig, 'metrics'>, registry?: Registry): Counting {
  if (!config.metrics.enabled) return {};
  const recorder = new EvaluationTally();
  const requests = new RequestTally();
  if (registry !== undefined) {
    registerEvaluationMetrics(registry, recorder);
    registerRequestMetrics(registry, requests);
  }
  return { recorder, requests };
}
