import {
  decodeCreateNamespace,
  decodeDeleteNamespace,
  decodeListNamespaces,
  decodeNamespaceRef,
  decodeUpdateNamespace,
} from '@ensign/core';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { listBody } from '../../http/list-body.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import type { NamespaceService } from './namespace.service.js';

/** /namespaces and /namespaces/{key}. */
export function registerNamespaceRoutes(router: AppRouter, service: NamespaceService): void {
  router.get('/namespaces', async (ctx) => {
    const page = await service.list(decodeListNamespaces(queryOf(ctx)));
    sendJson(ctx, listBody('namespaces', page, (ns) => ns.key));
  });
  router.post('/namespaces', async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateNamespace(bodyOf(ctx))));
  });
  router.get('/namespaces/:key', async (ctx) => {
    sendJson(ctx, await service.get(decodeNamespaceRef(queryOf(ctx), paramsOf(ctx))));
  });
  router.put('/namespaces/:key', async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateNamespace(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete('/namespaces/:key', async (ctx) => {
    await service.delete(decodeDeleteNamespace(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
