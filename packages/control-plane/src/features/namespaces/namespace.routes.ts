import {
  decodeCreateNamespace,
  decodeDeleteNamespace,
  decodeListNamespaces,
  decodeNamespaceRef,
  decodeUpdateNamespace,
} from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { listBody } from '../../http/list-body.js';
import { sendEmpty, sendJson } from '../../http/respond.js';
import type { NamespaceService } from './namespace.service.js';

/** /namespaces and /namespaces/{key}. */
export function registerNamespaceRoutes(router: AppRouter, service: NamespaceService, op: Operations): void {
  router.get('/namespaces', op('ListNamespaces'), async (ctx) => {
    // Authorization: every caller may list namespaces, and sees those its policy lets it view.
    const page = await service.list(decodeListNamespaces(queryOf(ctx)), await op.viewableNamespaces(ctx.state.caller));
    sendJson(ctx, listBody('namespaces', page, (ns) => ns.key));
  });
  router.post('/namespaces', op('CreateNamespace'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateNamespace(bodyOf(ctx))));
  });
  router.get('/namespaces/:key', op('GetNamespace'), async (ctx) => {
    sendJson(ctx, await service.get(decodeNamespaceRef(queryOf(ctx), paramsOf(ctx))));
  });
  router.put('/namespaces/:key', op('UpdateNamespace'), async (ctx) => {
    sendJson(ctx, await service.update(decodeUpdateNamespace(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete('/namespaces/:key', op('DeleteNamespace'), async (ctx) => {
    await service.delete(decodeDeleteNamespace(queryOf(ctx), paramsOf(ctx)));
    sendEmpty(ctx);
  });
}
