/**
 * The one mapping of errors to gRPC statuses. An AppError keeps its code (core's codes are gRPC's)
 * and its message, which is written to be shown; anything else is an INTERNAL "internal error"
 * whose cause is only logged, as the HTTP transports do.
 */
import { status as GrpcStatus, type StatusObject } from '@grpc/grpc-js';
import { boundedMessage, Code, isAppError, isServerFault } from '@ensign/core';

/** core's codes and gRPC's, name by name (they share their numbers; the table keeps it checked). */
const STATUS_OF: Readonly<Record<Code, GrpcStatus>> = {
  [Code.OK]: GrpcStatus.OK,
  [Code.Canceled]: GrpcStatus.CANCELLED,
  [Code.Unknown]: GrpcStatus.UNKNOWN,
  [Code.InvalidArgument]: GrpcStatus.INVALID_ARGUMENT,
  [Code.DeadlineExceeded]: GrpcStatus.DEADLINE_EXCEEDED,
  [Code.NotFound]: GrpcStatus.NOT_FOUND,
  [Code.AlreadyExists]: GrpcStatus.ALREADY_EXISTS,
  [Code.PermissionDenied]: GrpcStatus.PERMISSION_DENIED,
  [Code.ResourceExhausted]: GrpcStatus.RESOURCE_EXHAUSTED,
  [Code.FailedPrecondition]: GrpcStatus.FAILED_PRECONDITION,
  [Code.Aborted]: GrpcStatus.ABORTED,
  [Code.OutOfRange]: GrpcStatus.OUT_OF_RANGE,
  [Code.Unimplemented]: GrpcStatus.UNIMPLEMENTED,
  [Code.Internal]: GrpcStatus.INTERNAL,
  [Code.Unavailable]: GrpcStatus.UNAVAILABLE,
  [Code.DataLoss]: GrpcStatus.DATA_LOSS,
  [Code.Unauthenticated]: GrpcStatus.UNAUTHENTICATED,
};

/** What a failed call answers. */
export type GrpcErrorStatus = Pick<StatusObject, 'code' | 'details'>;

/** The status of a failed call, and whether the failure is the server's (to be logged). */
export function grpcStatusOf(err: unknown): GrpcErrorStatus & { serverFault: boolean } {
  // The same failures the HTTP transports log.
  const serverFault = isServerFault(err);
  if (!isAppError(err)) return { code: GrpcStatus.INTERNAL, details: 'internal error', serverFault };
  return { code: STATUS_OF[err.code] ?? GrpcStatus.UNKNOWN, details: boundedMessage(err.message), serverFault };
}
