import type { UsageBatch } from '@ensign/core';
import type { FlagUsageDetail, FlagUsageSummary, UsageSeries } from '@ensign/store';

/** The stored evaluation counts, as the analytics and usage routes read them and `POST /internal/v1/usage` adds to them. */
export interface UsageRepository {
  /** Stores a batch once: a batch id already stored is a no-op. */
  record(batch: UsageBatch): Promise<void>;
  /** One value per `stepMinutes` bucket from `from`'s to `to`'s, both included, zero-filled. */
  series(namespaceKey: string, flagKey: string, from: Date, to: Date, stepMinutes: number): Promise<UsageSeries>;
  /** Every counted flag of the namespace from `since` to `now`, in key order. */
  usage(namespaceKey: string, since: Date, now: Date): Promise<FlagUsageSummary[]>;
  /** One flag's evaluations from `from` to `to`. */
  flagUsage(namespaceKey: string, flagKey: string, from: Date, to: Date): Promise<FlagUsageDetail>;
}

/** What the analytics and usage routes are given (`AppDeps.analytics`). */
export interface AnalyticsOptions {
  usage: UsageRepository;
  /** The default window of `/usage`, after which a flag can be stale; 30 days when not set. */
  staleAfterMs?: number;
  /** The clock the usage routes judge by. */
  now?: () => Date;
}

export const DEFAULT_STALE_AFTER_MS = 30 * 24 * 3_600_000;
