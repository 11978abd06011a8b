import {
  decodeCreateRule,
  decodeFlagItemRef,
  decodeListRules,
  decodeOrderRules,
  decodeUpdateRule,
} from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { listBody } from '../../http/list-body.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import { flagPaths } from '../flags/flag.routes.js';
import { decodeRuleDistributions } from './rule-distributions.js';
import type { RuleService } from './rule.service.js';

/** /flags/{flagKey}/rules[...], namespaced and legacy. */
export function registerRuleRoutes(router: AppRouter, service: RuleService, op: Operations): void {
  router.get(flagPaths('/:flagKey/rules'), op('ListRules'), async (ctx) => {
    const page = await service.list(decodeListRules(queryOf(ctx), paramsOf(ctx)));
    sendJson(ctx, listBody('rules', page, (rule) => rule.id));
  });
  router.post(flagPaths('/:flagKey/rules'), op('CreateRule'), async (ctx) => {
    const body = bodyOf(ctx);
    sendJson(ctx, await service.create({ ...decodeCreateRule(body, paramsOf(ctx)), ...decodeRuleDistributions(body) }));
  });
  // COMPAT(flipt): registered before PUT .../rules/{id} so that `order` is never taken for an id.
  router.put(flagPaths('/:flagKey/rules/order'), op('OrderRules'), async (ctx) => {
    await service.order(decodeOrderRules(bodyOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
  router.get(flagPaths('/:flagKey/rules/:id'), op('GetRule'), async (ctx) => {
    sendJson(ctx, await service.get(decodeFlagItemRef(queryOf(ctx), paramsOf(ctx))));
  });
  router.put(flagPaths('/:flagKey/rules/:id'), op('UpdateRule'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateRule(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(flagPaths('/:flagKey/rules/:id'), op('DeleteRule'), async (ctx) => {
    await service.delete(decodeFlagItemRef(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
