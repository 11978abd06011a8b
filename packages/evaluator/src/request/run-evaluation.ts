/**
 * Running one evaluation request: refuse while snapshots are loading → decode once → check the
 * caller's scope against the decoded namespaces → hold them → evaluate. Every failure comes back
 * as an AppError value for the transport to answer in its own format; nothing is thrown past here
 * and nothing is run twice. Synchronous unless a namespace has to be fetched.
 */
import { AccessPolicy, type Caller, inNamespaces, type ScopeTarget, type Surface, UNDETERMINED } from '@ensign/auth';
import { AppError, internal, isAppError, unavailable } from '@ensign/core';
import type { SnapshotSource } from '../snapshot-source.js';
import type { EvaluationInput, EvaluationOperation, EvaluationSettings } from './evaluation-operation.js';
import { directView, type HeldView, holdNamespaces } from './hold-namespaces.js';

/** An answer, or why there is none. */
export type Outcome<Answer> = Answer | AppError;

/** What every request of one transport is run with. */
export interface EvaluationRun {
  source: SnapshotSource;
  settings: EvaluationSettings;
  /** Whose rules decide what a namespace-scoped caller may touch. */
  policy: AccessPolicy;
  /** `source.get`, made once. */
  direct: HeldView;
}

export function evaluationRun(source: SnapshotSource, settings: EvaluationSettings, policy: AccessPolicy = AccessPolicy.OPEN): EvaluationRun {
  return { source, settings, policy, direct: directView(source) };
}

/** Unavailable until the source has done its initial sync. */
export const NOT_READY = unavailable('snapshots are not loaded yet');

/** Anything thrown that is not an AppError is a fault of ours: answered as an internal error, its cause kept for the log. */
export const asAppError = (err: unknown): AppError => (isAppError(err) ? err : internal('internal error', err));

/**
 * Runs `operation` on `input` for `caller` (undefined when the surface is not guarded) on
 * `surface`. `started` is `performance.now()` when the request arrived.
 */
export function runEvaluation<Request, Answer>(
  run: EvaluationRun,
  operation: EvaluationOperation<Request, Answer>,
  input: EvaluationInput,
  surface: Surface,
  caller: Caller | undefined,
  started: number,
): Outcome<Answer> | Promise<Outcome<Answer>> {
  if (!run.source.ready()) return NOT_READY;
  let request: Request;
  let namespaces: readonly string[];
  try {
    request = operation.decode(input, run.settings);
    namespaces = operation.namespaces(request);
  } catch (err) {
    // A request whose namespaces cannot be read is refused to a scoped caller as one outside its namespace.
    return (caller?.namespace !== undefined && scopeRefusal(run.policy, surface, caller, UNDETERMINED)) || asAppError(err);
  }
  if (caller?.namespace !== undefined) {
    const refused = scopeRefusal(run.policy, surface, caller, inNamespaces(...namespaces));
    if (refused !== undefined) return refused;
  }
  const held = holdNamespaces(run.source, run.direct, namespaces);
  if (held instanceof Promise) {
    return held.then(
      (view) => evaluate(operation, request, view, run.settings, started),
      (err: unknown) => asAppError(err),
    );
  }
  return evaluate(operation, request, held, run.settings, started);
}

/** The policy's answer to `caller` touching `target` on `surface` (nothing: no namespace at all); undefined when allowed. */
export function scopeRefusal(policy: AccessPolicy, surface: Surface, caller: Caller, target?: ScopeTarget): AppError | undefined {
  try {
    policy.assertScope(surface, caller, target);
    return undefined;
  } catch (err) {
    return asAppError(err);
  }
}

function evaluate<Request, Answer>(operation: EvaluationOperation<Request, Answer>, request: Request, held: HeldView, settings: EvaluationSettings, started: number): Outcome<Answer> {
  try {
    return operation.evaluate(request, held, settings, started);
  } catch (err) {
    return asAppError(err);
  }
}
