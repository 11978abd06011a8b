/**
 * Where the clock stands among a held document's boundaries (the times at which a schedule, window
 * or ramp changes one of its flags): what is rendered or tagged from the document without
 * evaluating it (the client-side snapshot, OFREP's bulk ETag) is keyed on it, so it moves when a
 * boundary passes, on this process's clock, before the control plane publishes anything.
 */
import { boundariesPassed, documentBoundaries, type EvaluationEnv, type NamespaceSnapshot } from '@ensign/engine';

const boundaries = new WeakMap<NamespaceSnapshot, readonly number[]>();

/** The document's boundaries, sorted, found once per snapshot. */
export function boundariesOf(snapshot: NamespaceSnapshot): readonly number[] {
  let found = boundaries.get(snapshot);
  if (found === undefined) {
    found = Object.freeze(documentBoundaries(snapshot.document));
    boundaries.set(snapshot, found);
  }
  return found;
}

/** How many boundaries have passed; 0, without reading the clock, for a document without any. */
export function phaseOf(snapshot: NamespaceSnapshot, clock: EvaluationEnv): number {
  const found = boundariesOf(snapshot);
  return found.length === 0 ? 0 : boundariesPassed(found, clock.now());
}
