import { decodeCreateFlag, decodeKeyRef, decodeListInNamespace, decodeUpdateFlag } from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { listBody } from '../../http/list-body.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import type { FlagService } from './flag.service.js';

/** A flag path in its namespaced form and its legacy form (namespace `default`). */
export const flagPaths = (suffix: string): string[] => [`/namespaces/:namespaceKey/flags${suffix}`, `/flags${suffix}`];

/** /flags and /flags/{key}, namespaced and legacy. */
export function registerFlagRoutes(router: AppRouter, service: FlagService, op: Operations): void {
  router.get(flagPaths(''), op('ListFlags'), async (ctx) => {
    const page = await service.list(decodeListInNamespace(queryOf(ctx), paramsOf(ctx)));
    sendJson(ctx, listBody('flags', page, (flag) => flag.key));
  });
  router.post(flagPaths(''), op('CreateFlag'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateFlag(bodyOf(ctx), paramsOf(ctx))));
  });
  router.get(flagPaths('/:key'), op('GetFlag'), async (ctx) => {
    sendJson(ctx, await service.get(decodeKeyRef(queryOf(ctx), paramsOf(ctx))));
  });
  router.put(flagPaths('/:key'), op('UpdateFlag'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateFlag(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(flagPaths('/:key'), op('DeleteFlag'), async (ctx) => {
    await service.delete(decodeKeyRef(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
