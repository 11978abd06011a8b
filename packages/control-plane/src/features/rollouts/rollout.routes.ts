import {
  decodeCreateRollout,
  decodeFlagItemRef,
  decodeListRollouts,
  decodeOrderRollouts,
  decodeUpdateRollout,
} from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { listBody } from '../../http/list-body.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import type { RolloutService } from './rollout.service.js';

/** COMPAT(flipt): rollouts have no legacy (non-namespaced) routes. */
const BASE = '/namespaces/:namespaceKey/flags/:flagKey/rollouts';

/** /namespaces/{ns}/flags/{flagKey}/rollouts[...]. */
export function registerRolloutRoutes(router: AppRouter, service: RolloutService, op: Operations): void {
  router.get(BASE, op('ListRollouts'), async (ctx) => {
    const page = await service.list(decodeListRollouts(queryOf(ctx), paramsOf(ctx)));
    // COMPAT(flipt): RolloutList names its items `rules`.
    sendJson(ctx, listBody('rules', page, (rollout) => rollout.id));
  });
  router.post(BASE, op('CreateRollout'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateRollout(bodyOf(ctx), paramsOf(ctx))));
  });
  // Registered before PUT .../rollouts/{id} so that `order` is never taken for an id.
  router.put(`${BASE}/order`, op('OrderRollouts'), async (ctx) => {
    await service.order(decodeOrderRollouts(bodyOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
  router.get(`${BASE}/:id`, op('GetRollout'), async (ctx) => {
    sendJson(ctx, await service.get(decodeFlagItemRef(queryOf(ctx), paramsOf(ctx))));
  });
  router.put(`${BASE}/:id`, op('UpdateRollout'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateRollout(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(`${BASE}/:id`, op('DeleteRollout'), async (ctx) => {
    await service.delete(decodeFlagItemRef(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
