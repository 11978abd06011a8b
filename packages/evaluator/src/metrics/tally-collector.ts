/**
 * Registers tallies kept in plain numbers as prom-client metrics. prom-client's registry reads any
 * object with a name, help, type and `get()`; its own metric classes would count one call at a
 * time, which is the work the tallies keep off the hot paths.
 */
import type { Registry } from 'prom-client';
import type { MetricValue } from './histogram-tally.js';

export interface TallyMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  /** The sample lines, built when scraped. */
  values: () => MetricValue[];
}

class TallyCollector {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';

  constructor(private readonly metric: TallyMetric) {
    this.name = metric.name;
    this.help = metric.help;
    this.type = metric.type;
  }

  async get() {
    return { name: this.name, help: this.help, type: this.type, values: this.metric.values(), aggregator: 'sum' as const };
  }

  /** Counts are the process's own since it started: a registry reset does not clear them. */
  reset(): void {}
}

export function registerTallies(registry: Registry, metrics: readonly TallyMetric[]): void {
  for (const metric of metrics) registry.registerMetric(new TallyCollector(metric) as unknown as Parameters<Registry['registerMetric']>[0]);
}
