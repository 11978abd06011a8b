import type { Operations } from '../../auth/operation.middleware.js';
/**
 * Ensign's usage routes (not in Flipt), on `/api/v1` so they are authenticated and scoped like
 * every other namespace route:
 * - `GET /namespaces/{namespaceKey}/usage?window=720h&stale=true|false`: every flag of the
 *   namespace with its evaluations in the window and what they make of it (`flagStatus`).
 * - `GET /namespaces/{namespaceKey}/flags/{flagKey}/usage?from&to`: one flag's evaluations per
 *   value and per reason; the last 24 hours when not told.
 */
import { type Fields, type Flag, formatGoDuration, invalidField, parseGoDuration } from '@ensign/core';
import type { AppContext, AppRouter } from '../../http/app-state.js';
import { queryOf } from '../../http/input.js';
import { sendJson } from '../../http/respond.js';
import type { FlagRepository } from '../flags/flag.repository.js';
import type { NamespaceRepository } from '../namespaces/namespace.repository.js';
import { readTime } from './analytics-time.js';
import { flagStatus } from './flag-status.js';
import type { UsageRepository } from './usage.repository.js';

const DAY_MS = 24 * 3_600_000;

export interface UsageRouteDeps {
  usage: UsageRepository;
  namespaces: Pick<NamespaceRepository, 'get'>;
  flags: Pick<FlagRepository, 'list' | 'get'>;
  /** The window when none is asked for. */
  staleAfterMs: number;
  now: () => Date;
}

/** `window`, a Go duration longer than zero; `fallback` when not sent. */
function readWindow(query: Fields, fallback: number): number {
  const text = typeof query.window === 'string' ? query.window : '';
  if (text === '') return fallback;
  const ms = parseGoDuration(text);
  if (ms === undefined || ms <= 0) throw invalidField('window', `must be a duration longer than 0 such as 720h or 90m, not ${JSON.stringify(text)}`);
  return ms;
}

function readStale(query: Fields): boolean {
  const text = typeof query.stale === 'string' ? query.stale : '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  throw invalidField('stale', 'must be true or false');
}

const params = (ctx: AppContext) => ctx.params as { namespaceKey: string; flagKey?: string };
const byKey = (a: Flag, b: Flag): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export function registerUsageRoutes(router: AppRouter, deps: UsageRouteDeps, op: Operations): void {
  router.get('/namespaces/:namespaceKey/usage', op('ListFlagUsage'), async (ctx) => {
    const query = queryOf(ctx);
    const windowMs = readWindow(query, deps.staleAfterMs);
    const onlyStale = readStale(query);
    const { namespaceKey } = params(ctx);
    await deps.namespaces.get(namespaceKey);
    const now = deps.now().getTime();
    const since = now - windowMs;
    const [{ items }, counted] = await Promise.all([
      deps.flags.list(namespaceKey, { limit: 0, offset: 0 }),
      deps.usage.usage(namespaceKey, new Date(since), new Date(now)),
    ]);
    const usageOf = new Map(counted.map((u) => [u.flagKey, u]));
    const flags = [...items].sort(byKey).map((flag) => {
      const used = usageOf.get(flag.key);
      const evaluations = used?.evaluations ?? 0;
      const values = used?.values ?? [];
      return {
        flagKey: flag.key,
        name: flag.name,
        type: flag.type,
        enabled: flag.enabled,
        createdAt: flag.createdAt,
        lastEvaluatedAt: used?.lastEvaluatedAt ?? null,
        evaluations,
        values,
        ...flagStatus(Date.parse(flag.createdAt), since, evaluations, values.length),
      };
    });
    sendJson(ctx, { window: formatGoDuration(windowMs), since: new Date(since).toISOString(), flags: onlyStale ? flags.filter((f) => f.stale) : flags });
  });

  router.get('/namespaces/:namespaceKey/flags/:flagKey/usage', op('GetFlagUsage'), async (ctx) => {
    const query = queryOf(ctx);
    const to = readTime(query, 'to', deps.now().getTime());
    const from = readTime(query, 'from', to - DAY_MS);
    if (to < from) throw invalidField('to', 'must not be before from');
    const { namespaceKey, flagKey = '' } = params(ctx);
    await deps.flags.get(namespaceKey, flagKey);
    const detail = await deps.usage.flagUsage(namespaceKey, flagKey, new Date(from), new Date(to));
    sendJson(ctx, {
      flagKey,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      evaluations: detail.evaluations,
      lastEvaluatedAt: detail.lastEvaluatedAt ?? null,
      values: detail.values,
      reasons: detail.reasons,
    });
  });
}
