/**
 * Opening a snapshot stream: Flipt v2's `GET /client/v2/environments/{env}/namespaces/{ns}/stream`
 * and OFREP's change events `GET /ofrep/v1/_stream/{env}/{ns}/events`. Ensign has one environment:
 * any name serves it, as Flipt serves its default environment for a name it does not know.
 */
import { invalidField } from '@ensign/core';
import type { EvaluationInput, EvaluationOperation } from '../request/evaluation-operation.js';
import { gateOfRequest } from '../snapshot/snapshot-format.js';
import { gateFor } from '../snapshot/server-version.js';
import type { StreamRequest } from '../streams/snapshot-streams.js';
import { framingOf, type StreamFraming } from '../streams/stream-frames.js';

/** COMPAT(flipt): digests are hex SHA-1. */
const DIGEST_LENGTH = 40;

function decodeDigest(input: EvaluationInput): string | undefined {
  const digest = input.body.digest;
  if (digest === undefined || digest === '') return undefined;
  if (typeof digest !== 'string' || digest.length !== DIGEST_LENGTH) throw invalidField('digest', `must be a ${DIGEST_LENGTH}-character string`);
  return digest;
}

/**
 * The stream's request; `framing` decides by the `Accept` header. Flipt v2 streams the whole
 * document whatever the client's version, so an SDK that names no version (the Go SDK on its
 * stream) is shown everything; one that names it is gated as on the unary snapshot, and Ensign's
 * own clients (`?format=ensign`) get the document unfolded.
 */
const streamOperation = (framing: (accept: string | undefined) => StreamFraming): EvaluationOperation<StreamRequest, StreamRequest> => ({
  decode(input) {
    const version = input.header('x-flipt-accept-server-version');
    const gate = gateOfRequest(input, () => (version === undefined ? 'current' : gateFor(version)));
    return { key: input.params[1] ?? '', gate, framing: framing(input.header('accept')), digest: decodeDigest(input) };
  },
  namespaces: (request) => [request.key],
  evaluate: (request) => request,
});

export const clientStreamOperation = streamOperation(framingOf);

/** OFREP's change events are always Server-Sent Events. */
export const ofrepStreamOperation = streamOperation(() => 'sse');

/** COMPAT(flipt): OFREP's event stream takes any `Accept` that starts with `text/event-stream`, and only those. */
export const acceptsEventStream = (accept: string | undefined): boolean => accept?.startsWith('text/event-stream') === true;
