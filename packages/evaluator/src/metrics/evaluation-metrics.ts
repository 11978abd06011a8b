/**
 * Flipt's evaluation metrics over an `EvaluationTally`, built when `/metrics` is scraped:
 * `flipt_evaluations_requests_total{namespace,flag}`, `flipt_evaluations_errors_total{namespace,flag}`,
 * `flipt_evaluations_results_total{namespace,flag,match,segment,reason,value,type}` (boolean results:
 * `{namespace,flag,value,reason,type}`) and the histogram `flipt_evaluations_latency_milliseconds{namespace,flag}`.
 * They are registered as collectors of their own because prom-client's metric classes count and
 * observe one call at a time, which is the work the tally keeps off the hot path.
 */
import type { Registry } from 'prom-client';
import { type EvaluationTally, type FlagTally, LATENCY_BOUNDS_MS } from './evaluation-tally.js';

interface MetricValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

interface Collected {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: MetricValue[];
  aggregator: 'sum';
}

/** The shape prom-client's registry reads: a name, help, type and what `get()` resolves. */
class TallyCollector {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    private readonly values: () => MetricValue[],
  ) {}

  async get(): Promise<Collected> {
    return { name: this.name, help: this.help, type: this.type, values: this.values(), aggregator: 'sum' };
  }

  /** Counts are the process's own since it started: a registry reset does not clear them. */
  reset(): void {}
}

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
  for (const [namespace, flag, t] of tally.flags()) {
    let cumulative = 0;
    LATENCY_BOUNDS_MS.forEach((le, i) => {
      cumulative += t.latencyBuckets[i] as number;
      values.push({ metricName: `${LATENCY}_bucket`, labels: { namespace, flag, le }, value: cumulative });
    });
    cumulative += t.latencyBuckets[LATENCY_BOUNDS_MS.length] as number;
    values.push({ metricName: `${LATENCY}_bucket`, labels: { namespace, flag, le: '+Inf' }, value: cumulative });
    values.push({ metricName: `${LATENCY}_sum`, labels: { namespace, flag }, value: t.latencySum });
    values.push({ metricName: `${LATENCY}_count`, labels: { namespace, flag }, value: cumulative });
  }
  return values;
}

/** Registers the four metrics on `registry`. */
export function registerEvaluationMetrics(registry: Registry, tally: EvaluationTally): void {
  const collectors = [
    new TallyCollector('flipt_evaluations_requests_total', 'The total number of requested evaluations', 'counter', () => perFlag(tally, (t) => t.requests)),
    new TallyCollector('flipt_evaluations_errors_total', 'The total number of requested evaluations that failed', 'counter', () => perFlag(tally, (t) => t.errors)),
    new TallyCollector('flipt_evaluations_results_total', 'Count of results including match, flag, segment, reason and value attributes', 'counter', () => results(tally)),
    new TallyCollector(LATENCY, 'The latency of individual evaluations in milliseconds', 'histogram', () => latency(tally)),
  ];
  // prom-client's registry reads any object of this shape; its types only name its own classes.
  for (const collector of collectors) registry.registerMetric(collector as unknown as Parameters<Registry['registerMetric']>[0]);
}
