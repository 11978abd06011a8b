/** How the HTTP and gRPC listeners of `ensign server` and `ensign evaluator` stop: they drain within the shutdown timeout. */
import type { SnapshotStreams } from '@ensign/evaluator';
import type { RunningGrpcServer } from '@ensign/grpc/evaluation';
import type { Logger } from 'pino';
import type { RunningServer } from './http-server.js';

/** The stack group of both listeners: they stop taking work at the same moment. */
export const LISTENERS = 'listeners';

/**
 * Ends the snapshot streams (they never end by themselves: their clients reconnect to another
 * instance), then waits for in-flight requests up to `timeoutMs` and closes what is left.
 */
export async function stopHttp(server: RunningServer, streams: SnapshotStreams | undefined, timeoutMs: number, logger: Logger): Promise<void> {
  streams?.closeAll();
  const inTime = await server.shutdown(timeoutMs);
  // With no time given (a failed start) nothing was served, so there is nothing to warn about.
  if (!inTime && timeoutMs > 0) logger.warn('shutdown timeout reached; remaining connections were closed');
}

/** Waits for gRPC calls in flight up to `timeoutMs`, then cancels the rest. */
export async function stopGrpc(grpc: RunningGrpcServer, timeoutMs: number, logger: Logger): Promise<void> {
  const inTime = await grpc.shutdown(timeoutMs);
  if (!inTime && timeoutMs > 0) logger.warn('shutdown timeout reached; remaining gRPC calls were cancelled');
}
