/**
 * Applies each scheduled change request when its `applyAt` comes, as the scheduler; one that
 * cannot be applied then is suspended with the reason (see `ChangeRequestService.applyScheduled`).
 * With several control planes on one database each request is applied by exactly one: the apply
 * claims it in its own transaction.
 */
import type { Logger } from 'pino';
import { DueRunner } from '../schedules/due-runner.js';
import type { ChangeRequestService } from './change-request.service.js';

/** A scheduled request as the store lists it. */
export interface DueRequest {
  namespaceKey: string;
  id: string;
  applyAt: string;
}

/** What the runner reads of the store. */
export interface ScheduledRequests {
  due(now: string, limit: number): Promise<DueRequest[]>;
  nextApplyAt(): Promise<string | undefined>;
}

export interface ScheduledApplyOptions {
  requests: ScheduledRequests;
  service: Pick<ChangeRequestService, 'applyScheduled'>;
  logger: Logger;
  pollMs: number;
  now?: () => number;
}

export class ScheduledApply extends DueRunner<DueRequest> {
  constructor({ requests, service, logger, ...options }: ScheduledApplyOptions) {
    super({
      ...options,
      logger,
      work: {
        due: (now, limit) => requests.due(now, limit),
        nextAt: () => requests.nextApplyAt(),
        apply: (request) => service.applyScheduled(request.namespaceKey, request.id, logger),
      },
      messages: {
        done: 'scheduled change request applied',
        fields: (request) => ({ namespace: request.namespaceKey, changeRequest: request.id, applyAt: request.applyAt }),
        failing: 'applying scheduled change requests failed; they are applied once the database answers',
        recovered: 'scheduled change requests are applied again',
      },
    });
  }
}
