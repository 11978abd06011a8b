/**
 * Flipt v1's management service `flipt.Flipt` over gRPC: every method decodes its message with
 * the decoder of the matching HTTP route and calls the same control-plane service, so both
 * transports share every rule; the legacy Evaluate methods run the evaluator's legacy evaluation.
 */
import type { ManagementServices, OperationGuard } from '@ensign/control-plane';
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
  /** The use cases the HTTP routes call too (`managementServices(store)`). */
  services: ManagementServices;
  /** Where Evaluate and BatchEvaluate find snapshots; both answer UNIMPLEMENTED without one. */
  source?: SnapshotSource;
  /** `authorization.required`: filters what ListNamespaces answers. */
  authorization?: OperationGuard;
}

/** The `flipt.Flipt` service; namespace-scoped tokens are held to the namespace each request names. */
export function fliptBinding(deps: FliptBindingDeps): GrpcBinding {
  const { services } = deps;
  return {
    service: 'flipt.Flipt',
    surface: 'management',
    methods: {
      ...legacyEvaluationMethods(deps.source),
      ...namespaceMethods(services.namespaces, deps.authorization),
      ...flagMethods(services.flags),
      ...variantMethods(services.variants),
      ...segmentMethods(services.segments),
      ...constraintMethods(services.constraints),
      ...ruleMethods(services.rules),
      ...distributionMethods(services.distributions),
      ...rolloutMethods(services.rollouts),
    },
  };
}
