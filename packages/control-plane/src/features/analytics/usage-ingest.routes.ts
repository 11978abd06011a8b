/**
 * `POST /internal/v1/usage` (an Ensign extension): evaluation counts from processes that evaluate
 * outside Ensign (its OpenFeature providers evaluate in the caller's process), as one `UsageBatch`
 * in JSON, so flag usage and stale flags see those evaluations too. It is part of the evaluation
 * surface: authenticated as evaluations are (`exclude.evaluation` opens it), a namespace-scoped
 * token held to its namespace by every count, never checked by the authorization policy (the
 * callers are the evaluating clients). Storing is idempotent by batch id, so a sender that lost the
 * answer sends the same batch again.
 */
import { type AccessPolicy, inNamespaces } from '@ensign/auth';
import { type Fields, invalidField, isFields, type UsageBatch, type UsageCount } from '@ensign/core';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf } from '../../http/input.js';
import { sendEmpty } from '../../http/respond.js';

export interface UsageIngestDeps {
  record(batch: UsageBatch): Promise<void>;
  policy: AccessPolicy;
  /** Epoch milliseconds: a batch dated later (a sender's clock ahead) is counted now. */
  now: () => number;
}

function text(src: Fields, field: string, at: string, nonEmpty: boolean): string {
  const value = src[field];
  if (typeof value !== 'string' || (nonEmpty && value === '')) throw invalidField(`${at}${field}`, nonEmpty ? 'must be a non-empty string' : 'must be a string');
  return value;
}

function decodeCount(item: unknown, i: number): UsageCount {
  const at = `counts[${i}].`;
  if (!isFields(item)) throw invalidField(`counts[${i}]`, 'must be an object');
  const count = item.count;
  if (!Number.isSafeInteger(count) || (count as number) <= 0) throw invalidField(`${at}count`, 'must be a whole number above 0');
  return { namespaceKey: text(item, 'namespaceKey', at, false) || 'default', flagKey: text(item, 'flagKey', at, true), value: text(item, 'value', at, false), reason: text(item, 'reason', at, true), count: count as number };
}

/** The batch sent, or a 400 naming the first field that is not one. */
export function decodeUsageBatch(body: Fields, now: number): UsageBatch {
  const id = text(body, 'id', '', true);
  const at = body.at;
  if (!Number.isSafeInteger(at) || (at as number) < 0) throw invalidField('at', 'must be epoch milliseconds');
  if (!Array.isArray(body.counts)) throw invalidField('counts', 'must be an array');
  return { id, at: Math.min(at as number, now), counts: body.counts.map(decodeCount) };
}

export function registerUsageIngestRoute(router: AppRouter, deps: UsageIngestDeps): void {
  router.post('/usage', async (ctx) => {
    const batch = decodeUsageBatch(bodyOf(ctx), deps.now());
    deps.policy.assertScope('evaluation', ctx.state.caller, inNamespaces(...new Set(batch.counts.map((c) => c.namespaceKey))));
    await deps.record(batch);
    sendEmpty(ctx);
  });
}
