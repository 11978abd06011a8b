import { decodeCreateDistribution, decodeDeleteDistribution, decodeUpdateDistribution } from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import { flagPaths } from '../flags/flag.routes.js';
import type { DistributionService } from './distribution.service.js';

/** /flags/{flagKey}/rules/{ruleId}/distributions[/{id}], namespaced and legacy. */
export function registerDistributionRoutes(router: AppRouter, service: DistributionService, op: Operations): void {
  router.post(flagPaths('/:flagKey/rules/:ruleId/distributions'), op('CreateDistribution'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateDistribution(bodyOf(ctx), paramsOf(ctx))));
  });
  router.put(flagPaths('/:flagKey/rules/:ruleId/distributions/:id'), op('UpdateDistribution'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateDistribution(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(flagPaths('/:flagKey/rules/:ruleId/distributions/:id'), op('DeleteDistribution'), async (ctx) => {
    await service.delete(decodeDeleteDistribution(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
