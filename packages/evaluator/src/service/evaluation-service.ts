/**
 * The evaluation operations for transports that hand over a decoded message and can wait for the
 * answer (gRPC): the same operations, scope check and namespace holding as the HTTP routes;
 * failures reject with the AppError the HTTP routes would answer.
 */
import { type EvaluationRecorder, recorderOf } from '../metrics/evaluation-tally.js';
import type { Caller, Surface } from '@ensign/auth';
import type { BatchEvaluationResponse, BooleanEvaluationResponse, Fields, VariantEvaluationResponse } from '@ensign/core';
import { AppError } from '@ensign/core';
import type { SnapshotDocument } from '@ensign/engine';
import { batchOperation, booleanOperation, variantOperation } from '../operations/evaluate.operations.js';
import { legacyBatchOperation, legacyEvaluateOperation } from '../operations/legacy.operations.js';
import type { LegacyBatchEvaluationResponse, LegacyEvaluationResponse } from '../operations/legacy-responses.js';
import { documentOf, snapshotOperation } from '../operations/snapshot.operation.js';
import type { EvaluationInput, EvaluationOperation } from '../request/evaluation-operation.js';
import { evaluationRun, runEvaluation } from '../request/run-evaluation.js';
import type { SnapshotSource } from '../snapshot-source.js';

/** No cap on the requests of a batch: the body limit (`server.body_limit`, gRPC's largest message) bounds it. */
export const UNLIMITED_BATCH = Number.POSITIVE_INFINITY;

export interface EvaluationServiceOptions {
  source: SnapshotSource;
  /** Epoch milliseconds; `Date.now` when not set. */
  now?: () => number;
  /** Most requests in one batch; no cap when not set (the message size bounds a batch). */
  maxBatchSize?: number;
  /** Counts evaluations for `/metrics`; nothing is counted when not set. */
  recorder?: EvaluationRecorder;
}

/**
 * Messages are JSON-shaped objects (camelCase or snake_case fields, as the HTTP bodies); `caller`
 * is who made the call (undefined when its surface is not guarded), whose namespace scope is checked.
 */
export interface EvaluationService {
  variant(message: Fields, caller?: Caller): Promise<VariantEvaluationResponse>;
  boolean(message: Fields, caller?: Caller): Promise<BooleanEvaluationResponse>;
  batch(message: Fields, caller?: Caller): Promise<BatchEvaluationResponse>;
  /** The client-side snapshot document of a namespace, as a client that sends no version header is shown it. */
  snapshot(namespaceKey: string, caller?: Caller): Promise<SnapshotDocument>;
  /** Flipt's deprecated `flipt.Flipt/Evaluate` (management surface). */
  legacyEvaluate(message: Fields, caller?: Caller): Promise<LegacyEvaluationResponse>;
  legacyBatchEvaluate(message: Fields, caller?: Caller): Promise<LegacyBatchEvaluationResponse>;
}

const NO_PARAMS: readonly string[] = [];
const noHeader = (): undefined => undefined;

/** A message as an evaluation input: a body without path or headers. */
const messageInput = (body: Fields, params = NO_PARAMS): EvaluationInput => ({ body, params, header: noHeader });

export function createEvaluationService(options: EvaluationServiceOptions): EvaluationService {
  const run = evaluationRun(options.source, { now: options.now ?? Date.now, maxBatchSize: options.maxBatchSize ?? UNLIMITED_BATCH, ...recorderOf(options) });

  async function answer<R, A>(operation: EvaluationOperation<R, A>, input: EvaluationInput, surface: Surface, caller: Caller | undefined): Promise<A> {
    const outcome = await runEvaluation(run, operation, input, surface, caller, performance.now());
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }

  return {
    variant: (message, caller) => answer(variantOperation, messageInput(message), 'evaluation', caller),
    boolean: (message, caller) => answer(booleanOperation, messageInput(message), 'evaluation', caller),
    batch: (message, caller) => answer(batchOperation, messageInput(message), 'evaluation', caller),
    snapshot: async (namespaceKey, caller) => documentOf(await answer(snapshotOperation, messageInput({}, [namespaceKey]), 'evaluation', caller)),
    legacyEvaluate: (message, caller) => answer(legacyEvaluateOperation, messageInput(message), 'management', caller),
    legacyBatchEvaluate: (message, caller) => answer(legacyBatchOperation, messageInput(message), 'management', caller),
  };
}
