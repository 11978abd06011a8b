import type { Operations } from '../../auth/operation.middleware.js';
/**
 * `GET /internal/v1/analytics/namespaces/{namespaceKey}/flags/{flagKey}?from&to`: Flipt's
 * evaluation series of a flag, from the counts the evaluating processes send. A flag or namespace
 * never counted answers zeros, as Flipt's Prometheus backend does. A namespace-scoped caller is
 * held to its namespace by the router's scope middleware.
 *
 * DEPARTURE(flipt): a missing or unreadable `from` or `to`, `to` before `from`, or a range over
 * `MAX_RANGE_MS` is a 400 naming the field; Flipt answers a bad time with a 500 and has no limit.
 */
import { invalidField } from '@ensign/core';
import type { AppContext, AppRouter } from '../../http/app-state.js';
import { queryOf } from '../../http/input.js';
import { sendJson } from '../../http/respond.js';
import { readTime, stepMinutes } from './analytics-time.js';
import type { UsageRepository } from './usage.repository.js';

/** The longest range: a month of 30-minute buckets, the longest the minute counts could be kept for. */
export const MAX_RANGE_MS = 31 * 24 * 3_600_000;

export function registerAnalyticsRoutes(router: AppRouter, usage: UsageRepository, op: Operations): void {
  router.get('/namespaces/:namespaceKey/flags/:flagKey', op('GetFlagEvaluationsCount'), async (ctx: AppContext) => {
    const query = queryOf(ctx);
    const from = readTime(query, 'from');
    const to = readTime(query, 'to');
    if (to < from) throw invalidField('to', 'must not be before from');
    if (to - from > MAX_RANGE_MS) throw invalidField('to', 'must be at most 31 days after from');
    const { namespaceKey, flagKey } = ctx.params as { namespaceKey: string; flagKey: string };
    sendJson(ctx, await usage.series(namespaceKey, flagKey, new Date(from), new Date(to), stepMinutes(to - from)));
  });
}
