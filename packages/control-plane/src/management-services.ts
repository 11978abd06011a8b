/**
 * The management use cases over one store, built once and shared by every transport: the HTTP
 * routes and gRPC's `flipt.Flipt` call the same service objects.
 */
import { ConstraintService } from './features/constraints/constraint.service.js';
import { DistributionService } from './features/distributions/distribution.service.js';
import { FlagService } from './features/flags/flag.service.js';
import { NamespaceService } from './features/namespaces/namespace.service.js';
import { RolloutService } from './features/rollouts/rollout.service.js';
import { RuleService } from './features/rules/rule.service.js';
import { ScheduleService } from './features/schedules/schedule.service.js';
import { SegmentService } from './features/segments/segment.service.js';
import { VariantService } from './features/variants/variant.service.js';
import type { ManagementStore } from './store.js';

export interface ManagementServices {
  namespaces: NamespaceService;
  flags: FlagService;
  variants: VariantService;
  segments: SegmentService;
  constraints: ConstraintService;
  rules: RuleService;
  distributions: DistributionService;
  rollouts: RolloutService;
  schedules: ScheduleService;
}

export function managementServices(store: ManagementStore): ManagementServices {
  return {
    namespaces: new NamespaceService(store.namespaces),
    flags: new FlagService(store.flags),
    variants: new VariantService(store.variants),
    segments: new SegmentService(store.segments),
    constraints: new ConstraintService(store.constraints),
    rules: new RuleService(store.rules),
    distributions: new DistributionService(store.distributions),
    rollouts: new RolloutService(store.rollouts),
    schedules: new ScheduleService(store.schedules),
  };
}
