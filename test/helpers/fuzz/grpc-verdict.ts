/**
 * What every gRPC answer must be: no status that means a fault of the server (UNKNOWN, INTERNAL,
 * DATA_LOSS, UNAVAILABLE) nor one that means no answer (DEADLINE_EXCEEDED), and a bounded message.
 * The one INTERNAL allowed is grpc-js's answer to bytes that do not decode as the request: the
 * status gRPC specifies for an unparseable request (grpc-go, under Flipt, gives it too).
 */
import { status } from '@grpc/grpc-js';
import type { GrpcAnswer } from './grpc-send.js';
import { unboundedMessage } from './message-bounds.js';

const FAULTS = new Set<status>([status.UNKNOWN, status.INTERNAL, status.DATA_LOSS, status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);
const UNDECODABLE = 'Error deserializing request';

export function grpcFault(answer: GrpcAnswer): string | undefined {
  if (FAULTS.has(answer.code) && !(answer.code === status.INTERNAL && answer.details === UNDECODABLE)) return `${status[answer.code]}`;
  if (answer.code !== status.OK) return unboundedMessage(answer.details);
  return undefined;
}
