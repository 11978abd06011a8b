/**
 * Flipt's evaluation metrics over an `EvaluationTally`, built when `/metrics` is scraped:
 * `flipt_evaluations_requests_total{namespace,flag}`, `flipt_evaluations_errors_total{namespace,flag}`,
 * `flipt_evaluations_results_total{namespace,flag,match,segment,reason,value,type}` (boolean results:
 * `{namespace,flag,value,reason,type}`) and the histogram `flipt_evaluations_latency_milliseconds{namespace,flag}`.
 */
import type { Registry } from 'prom-client';
import type { MetricValue } from './histogram-tally.js';
import type { EvaluationTally, FlagTally } from './evaluation-tally.js';
import { registerTallies } from './tally-collector.js';

function perFlag(tally: EvaluationTally, value: (t: FlagTally) => number): MetricValue[] {
  const values: MetricValue[] = [];
  for (const [namespace, flag, t] of tally.flags()) values.push({ labels: { namespace, flag }, value: value(t) });
  return values;
}

function results(tally: EvaluationTally): MetricValue[] {
  const values: MetricValue[] = [];
  for (const [namespace, flag, t] of tally.flags()) {
    for (const { labels, count } of t.results.values()) values.push({ labels: { namespace, flag, ...labels }, value: count });
  }
  return values;
}

const LATENCY = 'flipt_evaluations_latency_milliseconds';

function latency(tally: EvaluationTally): MetricValue[] {
  const values: MetricValue[] = [];
  for (const [namespace, flag, t] of tally.flags()) values.push(...t.latency.values(LATENCY, { namespace, flag }));
  return values;
}

/** Registers the four metrics on `registry`. */
export function registerEvaluationMetrics(registry: Registry, tally: EvaluationTally): void {
  registerTallies(registry, [
    { name: 'flipt_evaluations_requests_total', help: 'The total number of requested evaluations', type: 'counter', values: () => perFlag(tally, (t) => t.requests) },
    { name: 'flipt_evaluations_errors_total', help: 'The total number of requested evaluations that failed', type: 'counter', values: () => perFlag(tally, (t) => t.errors) },
    { name: 'flipt_evaluations_results_total', help: 'Count of results including match, flag, segment, reason and value attributes', type: 'counter', values: () => results(tally) },
    { name: LATENCY, help: 'The latency of individual evaluations in milliseconds', type: 'histogram', values: () => latency(tally) },
  ]);
}
