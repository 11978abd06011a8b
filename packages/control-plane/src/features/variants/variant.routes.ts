import { decodeCreateVariant, decodeFlagItemRef, decodeUpdateVariant } from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import { flagPaths } from '../flags/flag.routes.js';
import type { VariantService } from './variant.service.js';

/** /flags/{flagKey}/variants[/{id}], namespaced and legacy; variants are read through their flag. */
export function registerVariantRoutes(router: AppRouter, service: VariantService, op: Operations): void {
  router.post(flagPaths('/:flagKey/variants'), op('CreateVariant'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateVariant(bodyOf(ctx), paramsOf(ctx))));
  });
  router.put(flagPaths('/:flagKey/variants/:id'), op('UpdateVariant'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateVariant(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(flagPaths('/:flagKey/variants/:id'), op('DeleteVariant'), async (ctx) => {
    await service.delete(decodeFlagItemRef(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
