import type { CreateSchedule, FlagSchedule } from '@ensign/core';

/** Storage of a flag's scheduled changes. */
export interface ScheduleRepository {
  /** By time; NotFound when there is no such flag. */
  list(namespaceKey: string, flagKey: string): Promise<FlagSchedule[]>;
  create(req: CreateSchedule): Promise<FlagSchedule>;
  /** Cancels a pending schedule and answers it; one not pending is a conflict (409). */
  delete(namespaceKey: string, flagKey: string, id: string): Promise<FlagSchedule>;
}
