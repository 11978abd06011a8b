import {
  type CreateSchedule,
  type FlagSchedule,
  type KeyRef,
  type ScheduleRef,
  validateCreateSchedule,
  validateKeyRef,
  validateScheduleRef,
} from '@ensign/core';
import type { ScheduleRepository } from './schedule.repository.js';

/** Schedule use cases: a schedule's time must still be to come when it is made. */
export class ScheduleService {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly now: () => number = Date.now,
  ) {}

  list(flag: KeyRef): Promise<FlagSchedule[]> {
    const { namespaceKey, key } = validateKeyRef(flag);
    return this.schedules.list(namespaceKey, key);
  }

  create(req: CreateSchedule): Promise<FlagSchedule> {
    return this.schedules.create(validateCreateSchedule(req, this.now()));
  }

  delete(req: ScheduleRef): Promise<FlagSchedule> {
    const { namespaceKey, flagKey, id } = validateScheduleRef(req);
    return this.schedules.delete(namespaceKey, flagKey, id);
  }
}
