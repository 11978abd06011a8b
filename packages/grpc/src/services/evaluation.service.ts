/**
 * `flipt.evaluation` over gRPC: EvaluationService (Boolean, Variant, Batch) and DataService
 * (EvaluationSnapshotNamespace). Each call runs the evaluator's evaluation operations, exactly as
 * the `/evaluate/v1` and snapshot routes do (decoding, the namespace scope of the caller, holding
 * the namespaces, evaluating); this file only converts the answers to messages.
 */
import type { Fields } from '@ensign/core';
import { createEvaluationService, type EvaluationRecorder, type SnapshotSource } from '@ensign/evaluator';
import type { GrpcBinding } from '../grpc-binding.js';
import { batchMessage, booleanMessage, variantMessage } from './evaluation-messages.js';
import { snapshotMessage } from './evaluation-snapshot-messages.js';

export interface EvaluationBindingDeps {
  source: SnapshotSource;
  /** Epoch milliseconds; `Date.now` when not set. */
  now?: () => number;
  /** Most requests in one batch; no cap when not set: grpc.max_receive_message_length (server.body_limit) bounds a batch. */
  maxBatchSize?: number;
  /** Counts evaluations for `/metrics`; nothing is counted when not set. */
  recorder?: EvaluationRecorder;
}

const snapshotKey = (request: Fields): string => (typeof request.key === 'string' ? request.key : '');

/**
 * The EvaluationService and DataService bindings, both on the evaluation surface. COMPAT(flipt):
 * handlers see no metadata, so the snapshot is answered as Flipt answers a client that sends no
 * `X-Flipt-Accept-Server-Version`.
 */
export function evaluationBindings(deps: EvaluationBindingDeps): GrpcBinding[] {
  const evaluation = createEvaluationService(deps);
  return [
    {
      service: 'flipt.evaluation.EvaluationService',
      surface: 'evaluation',
      methods: {
        Boolean: { handler: async (request, caller) => booleanMessage(await evaluation.boolean(request, caller)), scope: 'checked-by-handler' },
        Variant: { handler: async (request, caller) => variantMessage(await evaluation.variant(request, caller)), scope: 'checked-by-handler' },
        Batch: { handler: async (request, caller) => batchMessage(await evaluation.batch(request, caller)), scope: 'checked-by-handler' },
      },
    },
    {
      service: 'flipt.evaluation.DataService',
      surface: 'evaluation',
      methods: {
        EvaluationSnapshotNamespace: {
          handler: async (request, caller) => snapshotMessage(await evaluation.snapshot(snapshotKey(request), caller)),
          scope: 'checked-by-handler',
        },
      },
    },
  ];
}
