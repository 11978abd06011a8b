/** The gRPC listener of `ensign server` and `ensign evaluator`, from `server.*` and `authentication.*`. */
import { AccessPolicy, Authenticator } from '@ensign/auth';
import type { EvaluatorAuthOptions } from '@ensign/evaluator';
import { type CallAuthOptions, type CallRecorder, type CredentialResolver, type GrpcBinding, type Readiness, type RunningGrpcServer, startGrpcServer } from '@ensign/grpc/evaluation';
import type { Logger } from 'pino';
import type { EnsignConfig } from './config/config.schema.js';
import type { TlsFiles } from './http-server.js';

export interface GrpcListenerOptions {
  config: EnsignConfig;
  logger: Logger;
  bindings: readonly GrpcBinding[];
  auth: CallAuthOptions;
  /** What grpc.health.v1.Health reports: the same readiness as `/health`. */
  readiness: Readiness;
  tls: TlsFiles | undefined;
  /** Hears of every call answered (for `/metrics`). */
  calls?: CallRecorder;
}

/** Serves the bindings and the health service on `server.host:server.grpc_port` and logs the address. */
export async function startGrpcListener(options: GrpcListenerOptions): Promise<RunningGrpcServer> {
  const { config, logger, tls } = options;
  const server = await startGrpcServer({
    host: config.server.host,
    port: config.server.grpc_port,
    bindings: options.bindings,
    auth: options.auth,
    health: { readiness: options.readiness },
    maxMessageBytes: config.server.body_limit,
    logger,
    ...(tls === undefined ? {} : { tls }),
    ...(options.calls === undefined ? {} : { calls: options.calls }),
  });
  logger.info({ address: server.address, tls: tls !== undefined, services: options.bindings.map((b) => b.service) }, 'grpc listening');
  return server;
}

/**
 * Who may call, by the HTTP rules: evaluation calls are checked against the live digest set as the
 * evaluation routes are (no database on the way); every other call by `authenticator` (the control
 * plane's store-backed one), or the digest set too where there is none (`ensign evaluator`).
 */
export function grpcAuth(evaluation: EvaluatorAuthOptions, authenticator?: CredentialResolver): CallAuthOptions {
  const digests = new Authenticator({ digests: evaluation.digests, ...(evaluation.jwt === undefined ? {} : { jwt: evaluation.jwt }) });
  return {
    policy: new AccessPolicy({ required: evaluation.required, exclude: { ...evaluation.exclude } }),
    authenticator: authenticator ?? digests,
    evaluationAuthenticator: digests,
  };
}
