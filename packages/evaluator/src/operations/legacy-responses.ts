/** The legacy evaluation responses, in Flipt's field order. */
import type { EvaluationReason } from '@ensign/core';

/** Flipt's legacy `EvaluationResponse`. The reason names equal the v1 ones (only their integers differ). */
export interface LegacyEvaluationResponse {
  requestId: string;
  entityId: string;
  requestContext: Record<string, string>;
  match: boolean;
  flagKey: string;
  segmentKey: string;
  timestamp: string;
  value: string;
  requestDurationMillis: number;
  attachment: string;
  reason: EvaluationReason;
  namespaceKey: string;
  segmentKeys: string[];
}

/** Flipt's legacy `BatchEvaluationResponse`. */
export interface LegacyBatchEvaluationResponse {
  requestId: string;
  responses: LegacyEvaluationResponse[];
  requestDurationMillis: number;
}
