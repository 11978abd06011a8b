/**
 * A histogram kept in plain numbers (per-bucket counts, sum), observed on hot paths and written
 * out in Prometheus' form only when `/metrics` is scraped.
 */

/** One sample line as prom-client's registry writes it. */
export interface MetricValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

export class HistogramTally {
  /** Per bucket of `bounds`, then the +Inf bucket; not cumulative. */
  private readonly buckets: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[]) {
    this.buckets = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    this.count++;
    this.sum += value;
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] as number)) i++;
    this.buckets[i] = (this.buckets[i] as number) + 1;
  }

  /** The `_bucket` (cumulative, `le`), `_sum` and `_count` lines of `name` with `labels`. */
  values(name: string, labels: Record<string, string>): MetricValue[] {
    const values: MetricValue[] = [];
    let cumulative = 0;
    this.bounds.forEach((le, i) => {
      cumulative += this.buckets[i] as number;
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
    });
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: this.count });
    values.push({ metricName: `${name}_sum`, labels, value: this.sum });
    values.push({ metricName: `${name}_count`, labels, value: this.count });
    return values;
  }
}
