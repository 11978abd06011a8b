/**
 * Flipt v1's management service `flipt.Flipt` over gRPC: every method decodes its message with
 * the decoder of the matching HTTP route and calls the same control-plane service, so both
 * transports share every rule; the legacy Evaluate methods run the evaluator's legacy evaluation.
 */
import {
  ConstraintService,
  DistributionService,
  FlagService,
  type ManagementStore,
  type OperationGuard,
  NamespaceService,
  RolloutService,
  RuleService,
  SegmentService,
  VariantService,
} from '@ensign/control-plane';
import type { SnapshotSource } from '@ensign/evaluator';
import type { GrpcBinding } from '../grpc-binding.js';
import { constraintMethods } from './flipt-constraints.js';
import { distributionMethods } from './flipt-distributions.js';
import { flagMethods } from './flipt-flags.js';
import { legacyEvaluationMethods } from './flipt-legacy-evaluation.js';
import { namespaceMethods } from './flipt-namespaces.js';
import { rolloutMethods } from './flipt-rollouts.js';
import { ruleMethods } from './flipt-rules.js';
import { segmentMethods } from './flipt-segments.js';
import { variantMethods } from './flipt-variants.js';

export interface FliptBindingDeps {
  store: ManagementStore;
  /** Where Evaluate and BatchEvaluate find snapshots; both answer UNIMPLEMENTED without one. */
  source?: SnapshotSource;
  /** `authorization.required`: filters what ListNamespaces answers. */
  authorization?: OperationGuard;
}

/** The `flipt.Flipt` service; namespace-scoped tokens are held to the namespace each request names. */
export function fliptBinding(deps: FliptBindingDeps): GrpcBinding {
  const { store } = deps;
  return {
    service: 'flipt.Flipt',
    surface: 'management',
    methods: {
      ...legacyEvaluationMethods(deps.source),
      ...namespaceMethods(new NamespaceService(store.namespaces), deps.authorization),
      ...flagMethods(new FlagService(store.flags)),
      ...variantMethods(new VariantService(store.variants)),
      ...segmentMethods(new SegmentService(store.segments)),
      ...constraintMethods(new ConstraintService(store.constraints)),
      ...ruleMethods(new RuleService(store.rules)),
      ...distributionMethods(new DistributionService(store.distributions)),
      ...rolloutMethods(new RolloutService(store.rollouts)),
    },
  };
}
