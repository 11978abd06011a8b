/**
 * The evaluation API's wire shapes (`flipt.evaluation`, served at `/evaluate/v1`). Every field is
 * always present, as protojson emits zero values.
 */

/** `flipt.evaluation.EvaluationReason` (v1 API numbering; the legacy API has its own). */
export type EvaluationReason =
  | 'UNKNOWN_EVALUATION_REASON'
  | 'FLAG_DISABLED_EVALUATION_REASON'
  | 'MATCH_EVALUATION_REASON'
  | 'DEFAULT_EVALUATION_REASON';

export type ErrorEvaluationReason = 'UNKNOWN_ERROR_EVALUATION_REASON' | 'NOT_FOUND_ERROR_EVALUATION_REASON';

/** One evaluation request; `context` values are strings (the proto map is string → string). */
export interface EvaluationRequest {
  requestId: string;
  /** `""` means `default`. */
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

export interface BatchEvaluationRequest {
  requestId: string;
  requests: EvaluationRequest[];
}

export interface VariantEvaluationResponse {
  match: boolean;
  segmentKeys: string[];
  reason: EvaluationReason;
  variantKey: string;
  variantAttachment: string;
  requestId: string;
  requestDurationMillis: number;
  timestamp: string;
  flagKey: string;
}

export interface BooleanEvaluationResponse {
  enabled: boolean;
  reason: EvaluationReason;
  requestId: string;
  requestDurationMillis: number;
  timestamp: string;
  flagKey: string;
  segmentKeys: string[];
}

export interface ErrorEvaluationResponse {
  flagKey: string;
  /** The raw request value (`""` when it was omitted). */
  namespaceKey: string;
  reason: ErrorEvaluationReason;
}

export type EvaluationResponseItem =
  | { type: 'BOOLEAN_EVALUATION_RESPONSE_TYPE'; booleanResponse: BooleanEvaluationResponse }
  | { type: 'VARIANT_EVALUATION_RESPONSE_TYPE'; variantResponse: VariantEvaluationResponse }
  | { type: 'ERROR_EVALUATION_RESPONSE_TYPE'; errorResponse: ErrorEvaluationResponse };

export interface BatchEvaluationResponse {
  requestId: string;
  responses: EvaluationResponseItem[];
  requestDurationMillis: number;
}
