/**
 * `flipt.Flipt/Evaluate` and `BatchEvaluate`, Flipt's deprecated evaluation: the evaluator's
 * legacy evaluation operations, as its `/api/v1/evaluate` routes run them (the caller's namespace
 * scope included).
 */
import { AppError, Code } from '@ensign/core';
import { createEvaluationService, type LegacyEvaluationResponse, type SnapshotSource } from '@ensign/evaluator';
import type { GrpcMethod } from '../grpc-binding.js';
import { toTimestamp } from '../proto-values.js';

const evaluationMessage = (response: LegacyEvaluationResponse) => ({ ...response, timestamp: toTimestamp(response.timestamp) });

/** Without a snapshot source (a process that evaluates nowhere) both methods answer UNIMPLEMENTED. */
export function legacyEvaluationMethods(source: SnapshotSource | undefined): Record<string, GrpcMethod> {
  const evaluation = source === undefined ? undefined : createEvaluationService({ source });
  const served = () => {
    if (evaluation === undefined) throw new AppError(Code.Unimplemented, 'legacy evaluation is not served by this process');
    return evaluation;
  };
  return {
    Evaluate: {
      scope: 'checked-by-handler',
      handler: async (request, caller) => evaluationMessage(await served().legacyEvaluate(request, caller)),
    },
    BatchEvaluate: {
      scope: 'checked-by-handler',
      handler: async (request, caller) => {
        const batch = await served().legacyBatchEvaluate(request, caller);
        return { ...batch, responses: batch.responses.map(evaluationMessage) };
      },
    },
  };
}
