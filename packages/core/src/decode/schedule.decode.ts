import type { CreateSchedule, ScheduleRef } from '../requests.js';
import { type Fields, type PathParams, readBoolean, readString, withPath } from './fields.js';
import { readTime } from './timing.decode.js';

/** POST /flags/{flagKey}/schedules body: `{at, enabled}`. */
export function decodeCreateSchedule(body: Fields, path?: PathParams): CreateSchedule {
  const src = withPath(body, path);
  return {
    namespaceKey: readString(src, 'namespaceKey'),
    flagKey: readString(src, 'flagKey'),
    at: readTime(src, 'at') ?? '',
    enabled: readBoolean(src, 'enabled'),
  };
}

/** DELETE /flags/{flagKey}/schedules/{id}. */
export function decodeScheduleRef(query: Fields, path?: PathParams): ScheduleRef {
  const src = withPath(query, path);
  return { namespaceKey: readString(src, 'namespaceKey'), flagKey: readString(src, 'flagKey'), id: readString(src, 'id') };
}
