/** What the stored evaluation counts answer. */

/** Flipt's analytics series: bucket starts (RFC 3339 UTC) and the evaluations in each. */
export interface UsageSeries {
  timestamps: string[];
  values: number[];
}

export interface ValueCount {
  value: string;
  count: number;
}

export interface ReasonCount {
  reason: string;
  count: number;
}

/** One flag's evaluations in a namespace's window. */
export interface FlagUsageSummary {
  flagKey: string;
  evaluations: number;
  /** Most served first. */
  values: ValueCount[];
  /** When the flag was last evaluated, in or before the window; undefined when never. */
  lastEvaluatedAt: string | undefined;
}

/** One flag's evaluations between two times. */
export interface FlagUsageDetail {
  evaluations: number;
  /** Most served first. */
  values: ValueCount[];
  /** Most frequent first. */
  reasons: ReasonCount[];
  lastEvaluatedAt: string | undefined;
}

/** How many rows a prune deleted, per table. */
export interface UsagePruned {
  minutes: number;
  hours: number;
  batches: number;
  /** Last evaluations of flags that no longer exist. */
  lasts: number;
}
