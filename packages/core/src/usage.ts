/**
 * Evaluation counts as they travel from the processes that evaluate to the control plane that
 * stores them. A batch is what one process counted over one period; its id makes storing it
 * idempotent, so a batch sent again after a lost acknowledgement is not counted twice.
 */

/** One (namespace, flag, value, reason) count of a period. */
export interface UsageCount {
  namespaceKey: string;
  flagKey: string;
  /** The variant key (`""` when none matched) or, for a boolean flag, `"true"` / `"false"`. */
  value: string;
  /** Flipt's evaluation reason name, e.g. `MATCH_EVALUATION_REASON`. */
  reason: string;
  count: number;
}

/** What one process counted between two flushes. */
export interface UsageBatch {
  /** Unique per batch: the process's id and the batch's sequence number. */
  id: string;
  /** When the period ended, epoch milliseconds: every count of the batch lands in its minute. */
  at: number;
  counts: UsageCount[];
}

/** Takes a batch to storage; resolves once it is stored (or was already), rejects when it could not be. */
export type UsageReceiver = (batch: UsageBatch) => Promise<void>;

/** What `/api/v1/namespaces/{ns}/usage` says of one flag (an Ensign extension). */
export type FlagUsageStatus = 'new' | 'active' | 'inactive' | 'launched';
