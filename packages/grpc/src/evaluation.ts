/**
 * `@ensign/grpc/evaluation`: what an evaluation-only process serves over gRPC (the server, the
 * health check, the evaluation services). Nothing here reaches the control plane or the store, so
 * `ensign evaluator` loads neither.
 */
export type { GrpcBinding, GrpcMethod, GrpcSurface } from './grpc-binding.js';
export { fromProtoStruct, fromProtoValue, fromTimestamp, toProtoStruct, toProtoValue, toTimestamp } from './proto-values.js';
export type { ProtoStruct, ProtoTimestamp, ProtoValue } from './proto-values.js';
export { loadOptions, packageDefinition, protoDescriptor, protoFiles, protosDirectory, serviceDefinition, useProtoDescriptor } from './proto-loading.js';
export { startGrpcServer } from './grpc-server.js';
export type { CallRecorder, GrpcServerOptions, GrpcTls, RunningGrpcServer } from './grpc-server.js';
export { grpcStatusOf } from './grpc-status.js';
export type { GrpcErrorStatus } from './grpc-status.js';
export { CallAuth, credentialOf } from './call-auth.js';
export type { CallAuthOptions, CredentialResolver } from './call-auth.js';
export { DEFAULT_HEALTH_INTERVAL_MS, GrpcHealth } from './health-service.js';
export type { HealthOptions, Readiness } from './health-service.js';
export type { GrpcLogger } from './grpc-logger.js';
export { evaluationBindings } from './services/evaluation.service.js';
export type { EvaluationBindingDeps } from './services/evaluation.service.js';
