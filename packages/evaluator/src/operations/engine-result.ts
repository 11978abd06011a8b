/**
 * The engine's result behind a variant answer, carried under a symbol (which JSON.stringify and the
 * gRPC messages never see): results are built once per compiled rule and shared, so the HTTP
 * writer can write their part of the answer once and reuse it.
 */
import type { VariantEvaluationResponse } from '@ensign/core';
import type { VariantResult } from '@ensign/engine';

export const ENGINE_RESULT: unique symbol = Symbol('engine result');

/** A variant answer that may carry the result it was made from. */
export type VariantAnswer = VariantEvaluationResponse & { [ENGINE_RESULT]?: VariantResult };
