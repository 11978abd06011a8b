import type { Operations } from '../../auth/operation.middleware.js';
/**
 * `GET /api/v1/audit/events` and `GET /api/v1/namespaces/{namespaceKey}/audit/events`: the stored
 * history of changes, newest first. A namespace-scoped caller sees only its namespace (the scope
 * middleware has refused any other one it named).
 */
import { type AuditQuery, decodeListAuditEvents, type Fields } from '@ensign/core';
import type { AppContext, AppRouter } from '../../http/app-state.js';
import { paramsOf, queryOf } from '../../http/input.js';
import { sendJson } from '../../http/respond.js';
import type { HistoryRepository } from './history.repository.js';

/** The filters that may be repeated keep every value; the rest their first. */
function historyQuery(ctx: AppContext): Fields {
  const query: Record<string, unknown> = { ...queryOf(ctx) };
  for (const name of ['type', 'action']) if (ctx.query[name] !== undefined) query[name] = ctx.query[name];
  return query;
}

function decode(ctx: AppContext): AuditQuery {
  const query = decodeListAuditEvents(historyQuery(ctx), paramsOf(ctx));
  const scoped = ctx.state.caller?.namespace;
  // COMPAT(flipt): a scoped token's namespace; an empty namespaceKey is `default` to the scope check, so it is here too.
  if (scoped !== undefined) return { ...query, namespaceKey: query.namespaceKey ?? 'default' };
  return query;
}

export function registerHistoryRoutes(router: AppRouter, history: HistoryRepository, op: Operations): void {
  const list = async (ctx: AppContext) => sendJson(ctx, await history.list(decode(ctx)));
  router.get('/audit/events', op('ListChanges'), list);
  router.get('/namespaces/:namespaceKey/audit/events', op('ListChanges'), list);
}
