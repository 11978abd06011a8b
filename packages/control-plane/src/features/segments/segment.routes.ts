import { decodeCreateSegment, decodeKeyRef, decodeListInNamespace, decodeUpdateSegment } from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { listBody } from '../../http/list-body.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import type { SegmentService } from './segment.service.js';

/** A segment path in its namespaced form and its legacy form (namespace `default`). */
export const segmentPaths = (suffix: string): string[] => [
  `/namespaces/:namespaceKey/segments${suffix}`,
  `/segments${suffix}`,
];

/** /segments and /segments/{key}, namespaced and legacy. */
export function registerSegmentRoutes(router: AppRouter, service: SegmentService, op: Operations): void {
  router.get(segmentPaths(''), op('ListSegments'), async (ctx) => {
    const page = await service.list(decodeListInNamespace(queryOf(ctx), paramsOf(ctx)));
    sendJson(ctx, listBody('segments', page, (segment) => segment.key));
  });
  router.post(segmentPaths(''), op('CreateSegment'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateSegment(bodyOf(ctx), paramsOf(ctx))));
  });
  router.get(segmentPaths('/:key'), op('GetSegment'), async (ctx) => {
    sendJson(ctx, await service.get(decodeKeyRef(queryOf(ctx), paramsOf(ctx))));
  });
  router.put(segmentPaths('/:key'), op('UpdateSegment'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateSegment(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(segmentPaths('/:key'), op('DeleteSegment'), async (ctx) => {
    await service.delete(decodeKeyRef(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
