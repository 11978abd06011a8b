/**
 * Ensign's `ensign.flags.v1.FlagTimingService`: what Flipt's protos have no field for, over the
 * control-plane services the HTTP routes call. Schedules are decoded by their routes' decoders
 * (a Timestamp read as the RFC 3339 time a JSON body carries); each method is the management
 * operation of its name, so scope and authorization are checked as for `flipt.Flipt`.
 */
import type { ManagementServices } from '@ensign/control-plane';
import { decodeCreateSchedule, decodeKeyRef, decodeScheduleRef, emptyField, type KeyRef, type ListInFlag } from '@ensign/core';
import type { GrpcBinding } from '../grpc-binding.js';
import { fromTimestamp, type ProtoTimestamp } from '../proto-values.js';
import { flagTimingMessage, scheduleMessage } from './flag-timing-messages.js';
import { type Message, namespaceKeyScope } from './flipt-request.js';

export interface FlagTimingBindingDeps {
  /** The use cases the HTTP routes call too (`managementServices(store)`). */
  services: ManagementServices;
}

/** The flag a request names by `flagKey` (the field these messages use), which must be set. */
function flagOf(request: Message): KeyRef {
  const ref = decodeKeyRef({ namespaceKey: request.namespaceKey, key: request.flagKey });
  if (ref.key === '') throw emptyField('flagKey');
  return ref;
}

/** Every rule or rollout of the flag, by rank. */
const everyItem = (flag: KeyRef): ListInFlag => ({ namespaceKey: flag.namespaceKey, flagKey: flag.key, page: { limit: 0, offset: 0, pageToken: '' } });

async function flagTiming(services: ManagementServices, request: Message) {
  const ref = flagOf(request);
  const flag = await services.flags.get(ref);
  const rules = await services.rules.list(everyItem(ref));
  const rollouts = await services.rollouts.list(everyItem(ref));
  return flagTimingMessage(flag, rules.items, rollouts.items, await services.schedules.list(ref));
}

/** The `ensign.flags.v1.FlagTimingService`; namespace-scoped tokens are held to the namespace each request names. */
export function flagTimingBinding({ services }: FlagTimingBindingDeps): GrpcBinding {
  return {
    service: 'ensign.flags.v1.FlagTimingService',
    surface: 'management',
    methods: {
      GetFlagTiming: {
        scope: namespaceKeyScope,
        handler: (request) => flagTiming(services, request),
      },
      ListFlagSchedules: {
        scope: namespaceKeyScope,
        handler: async (request) => ({ schedules: (await services.schedules.list(flagOf(request))).map(scheduleMessage) }),
      },
      CreateFlagSchedule: {
        scope: namespaceKeyScope,
        handler: async (request) => {
          const at = fromTimestamp(request.at as ProtoTimestamp | null | undefined) ?? '';
          return scheduleMessage(await services.schedules.create(decodeCreateSchedule({ ...request, at })));
        },
      },
      DeleteFlagSchedule: {
        scope: namespaceKeyScope,
        handler: async (request) => scheduleMessage(await services.schedules.delete(decodeScheduleRef(request))),
      },
    },
  };
}
