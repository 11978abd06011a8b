/**
 * The one shape of every evaluation request, whichever transport carries it (`/evaluate/v1`, the
 * legacy `/api/v1/evaluate` routes, OFREP, the client-side snapshot, gRPC): decoded once into a
 * request that names its namespaces, checked against the caller's scope, evaluated over the held
 * namespaces. Transports only adapt their wire format around it (see run-evaluation.ts).
 */
import type { AppError, Fields } from '@ensign/core';
import type { HashMode } from '@ensign/engine';
import type { EvaluationRecorder } from '../metrics/evaluation-tally.js';
import type { HeldView } from './hold-namespaces.js';

/** What a transport hands over: the JSON-shaped body (or gRPC message), path parameters, headers. */
export interface EvaluationInput {
  body: Fields;
  /** Decoded path parameters in path order (gRPC: none, or the snapshot's key). */
  params: readonly string[];
  /** A request header by lower-case name (gRPC: none). */
  header(name: string): string | undefined;
}

/** The settings decoding and evaluation share, fixed when the transport is created. */
export interface EvaluationSettings {
  /** Epoch milliseconds: the evaluation clock and response timestamps. */
  now: () => number;
  /** Most requests in one batch; `Infinity` for no cap. */
  maxBatchSize: number;
  /** Counts evaluations for `/metrics` (Flipt's `flipt_evaluations_*`); nothing is counted when not set. */
  recorder?: EvaluationRecorder;
  /** The hash the source's snapshots are compiled with, announced to Ensign's own clients; not announced when not set. */
  hash?: HashMode;
}

/** One kind of evaluation request, from decoded input to the answer a transport serialises. */
export interface EvaluationOperation<Request, Answer> {
  /** Reads the input once; throws an invalid-argument AppError naming the field for bad input. */
  decode(input: EvaluationInput, settings: EvaluationSettings): Request;
  /** The namespaces the request touches as sent (`""` is `default`): what a scoped token is checked against and what is held first. */
  namespaces(request: Request): readonly string[];
  /** The answer over held namespaces; a refusal (flag not found, bad context) is returned, not thrown. `started` is `performance.now()` at arrival. */
  evaluate(request: Request, held: HeldView, settings: EvaluationSettings, started: number): Answer | AppError;
}
