import { decodeCreateConstraint, decodeSegmentItemRef, decodeUpdateConstraint } from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import { segmentPaths } from '../segments/segment.routes.js';
import type { ConstraintService } from './constraint.service.js';

/** /segments/{segmentKey}/constraints[/{id}], namespaced and legacy. */
export function registerConstraintRoutes(router: AppRouter, service: ConstraintService, op: Operations): void {
  router.post(segmentPaths('/:segmentKey/constraints'), op('CreateConstraint'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateConstraint(bodyOf(ctx), paramsOf(ctx))));
  });
  router.put(segmentPaths('/:segmentKey/constraints/:id'), op('UpdateConstraint'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateConstraint(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(segmentPaths('/:segmentKey/constraints/:id'), op('DeleteConstraint'), async (ctx) => {
    await service.delete(decodeSegmentItemRef(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
