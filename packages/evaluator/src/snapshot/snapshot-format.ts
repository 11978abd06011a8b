/**
 * `?format=ensign` on the client-side snapshot and its stream: Ensign's own clients (its OpenFeature
 * providers) evaluate with the same engine as an evaluator, so they are served the document as
 * held (schedules, windows, ramps and prerequisites unfolded), with its revision and this
 * process's bucketing hash, and flip on their own clock. Flipt's clients never send it and keep
 * the folded, version-gated rendering.
 */
import { invalidField } from '@ensign/core';
import type { EvaluationInput } from '../request/evaluation-operation.js';
import type { SnapshotGate } from './server-version.js';

export const ENSIGN_FORMAT = 'ensign';

/** `ensign` when the query asks for it, else the gate Flipt's version header decides. */
export function gateOfRequest(input: EvaluationInput, versionGate: () => SnapshotGate): SnapshotGate {
  const format = input.body.format;
  if (format === undefined || format === '') return versionGate();
  if (format !== ENSIGN_FORMAT) throw invalidField('format', `must be ${ENSIGN_FORMAT} when sent`);
  return 'ensign';
}
