import { readBooleanParam, readString, resolveNamespace } from '@ensign/core';
import type { Operations } from '../auth/operation.middleware.js';
import type { AppRouter } from '../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../http/input.js';
import { sendJson } from '../http/respond.js';
import { type ChangeRequestService, decodeApplyAt, decodeContent, decodeDraft, decodeStates } from './change-request.service.js';

const BASE = '/namespaces/:namespaceKey/change-requests';

/** /namespaces/{ns}/change-requests[...] (Ensign's extension). */
export function registerChangeRequestRoutes(router: AppRouter, service: ChangeRequestService, op: Operations): void {
  const ns = (params: Record<string, string | undefined>): string => resolveNamespace(params.namespaceKey ?? '');
  const id = (params: Record<string, string | undefined>): string => params.id ?? '';
  router.get('/namespaces/:namespaceKey/change-policy', op('GetChangePolicy'), async (ctx) => {
    sendJson(ctx, await service.getPolicy(ns(paramsOf(ctx))));
  });
  router.put('/namespaces/:namespaceKey/change-policy', op('UpdateChangePolicy'), async (ctx) => {
    sendJson(ctx, await service.setPolicy(ns(paramsOf(ctx)), bodyOf(ctx)));
  });
  router.get(BASE, op('ListChangeRequests'), async (ctx) => {
    const query = queryOf(ctx);
    sendJson(ctx, { changeRequests: await service.list(ns(paramsOf(ctx)), decodeStates(query), readString(query, 'author')) });
  });
  // `{changes}` or `{promoteFrom, flags?, segments?}`; with `?dryRun=true` the request it would make, nothing stored.
  router.post(BASE, op('CreateChangeRequest'), async (ctx) => {
    const draft = decodeDraft(bodyOf(ctx));
    const namespace = ns(paramsOf(ctx));
    sendJson(ctx, readBooleanParam(queryOf(ctx), 'dryRun') ? await service.preview(namespace, draft, ctx.state) : await service.create(namespace, draft, ctx.state));
  });
  router.get(`${BASE}/:id`, op('GetChangeRequest'), async (ctx) => {
    sendJson(ctx, await service.get(ns(paramsOf(ctx)), id(paramsOf(ctx)), ctx.state));
  });
  router.put(`${BASE}/:id`, op('UpdateChangeRequest'), async (ctx) => {
    sendJson(ctx, await service.replace(ns(paramsOf(ctx)), id(paramsOf(ctx)), decodeContent(bodyOf(ctx)), ctx.state));
  });
  router.post(`${BASE}/:id/submit`, op('SubmitChangeRequest'), async (ctx) => {
    sendJson(ctx, await service.submit(ns(paramsOf(ctx)), id(paramsOf(ctx))));
  });
  router.post(`${BASE}/:id/cancel`, op('CancelChangeRequest'), async (ctx) => {
    sendJson(ctx, await service.cancel(ns(paramsOf(ctx)), id(paramsOf(ctx))));
  });
  router.post(`${BASE}/:id/comments`, op('CommentChangeRequest'), async (ctx) => {
    sendJson(ctx, await service.comment(ns(paramsOf(ctx)), id(paramsOf(ctx)), readString(bodyOf(ctx), 'comment')));
  });
  router.post(`${BASE}/:id/approvals`, op('ApproveChangeRequest'), async (ctx) => {
    const digest = readString(bodyOf(ctx), 'digest');
    sendJson(ctx, await service.approve(ns(paramsOf(ctx)), id(paramsOf(ctx)), digest === '' ? undefined : digest));
  });
  router.post(`${BASE}/:id/rejections`, op('RejectChangeRequest'), async (ctx) => {
    sendJson(ctx, await service.reject(ns(paramsOf(ctx)), id(paramsOf(ctx)), readString(bodyOf(ctx), 'comment')));
  });
  router.post(`${BASE}/:id/apply`, op('ApplyChangeRequest'), async (ctx) => {
    sendJson(ctx, await service.apply(ns(paramsOf(ctx)), id(paramsOf(ctx)), decodeApplyAt(bodyOf(ctx)), ctx.state));
  });
}
