import { decodeCreateSchedule, decodeKeyRef, decodeScheduleRef } from '@ensign/core';
import type { Operations } from '../../auth/operation.middleware.js';
import type { AppRouter } from '../../http/app-state.js';
import { bodyOf, paramsOf, queryOf } from '../../http/input.js';
import { sendJson } from '../../http/respond.js';
import { flagPaths } from '../flags/flag.routes.js';
import type { ScheduleService } from './schedule.service.js';

/** /flags/{flagKey}/schedules[/{id}], namespaced and legacy (Ensign's extension). */
export function registerScheduleRoutes(router: AppRouter, service: ScheduleService, op: Operations): void {
  router.get(flagPaths('/:flagKey/schedules'), op('ListFlagSchedules'), async (ctx) => {
    const { flagKey, ...params } = paramsOf(ctx);
    sendJson(ctx, { schedules: await service.list(decodeKeyRef(queryOf(ctx), { ...params, key: flagKey })) });
  });
  router.post(flagPaths('/:flagKey/schedules'), op('CreateFlagSchedule'), async (ctx) => {
    sendJson(ctx, await service.create(decodeCreateSchedule(bodyOf(ctx), paramsOf(ctx))));
  });
  router.delete(flagPaths('/:flagKey/schedules/:id'), op('DeleteFlagSchedule'), async (ctx) => {
    sendJson(ctx, await service.delete(decodeScheduleRef(queryOf(ctx), paramsOf(ctx))));
  });
}
