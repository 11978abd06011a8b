import { randomUUID } from 'node:crypto';
import type { UsageBatch, UsageCount } from '@ensign/core';

/** 2026-11-26T04:00:00Z: counts are stored at fixed times, far from the store's clock. */
export const T0 = Date.UTC(2026, 10, 26, 4, 0, 0);
export const MINUTE = 60_000;
export const HOUR = 3_600_000;

/** A batch of a fresh id ending at `at` (epoch ms). */
export const batchAt = (at: number, counts: UsageCount[], id: string = randomUUID()): UsageBatch => ({ id, at, counts });

/** A count of `flagKey` serving `value` for the usual reason. */
export const served = (namespaceKey: string, flagKey: string, value: string, count: number, reason = 'MATCH_EVALUATION_REASON'): UsageCount => ({
  namespaceKey,
  flagKey,
  value,
  reason,
  count,
});

/** The RFC 3339 form the series answers with. */
export const rfc = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
