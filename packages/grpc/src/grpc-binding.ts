/**
 * What a gRPC service of this package is: plain functions from a decoded request to a response
 * object, with the surface that decides authentication and, for namespaced routes, where the
 * request names its namespace. The server (grpc-server.ts) turns a binding into grpc-js handlers:
 * it authenticates the call's `authorization` metadata, checks a namespace-scoped token against
 * `scope`, runs the handler and maps an AppError to its gRPC status. No handler sees grpc-js types.
 */
import type { Caller, ScopeTarget, Surface } from '@ensign/auth';

/** Which part of the API a service belongs to: the access policy's surfaces, the same as over HTTP. */
export type GrpcSurface = Surface;

/** One unary method. `request` is the message as @grpc/proto-loader decodes it (see proto-loading.ts). */
export interface GrpcMethod {
  handler: (request: Record<string, unknown>, caller: Caller | undefined) => unknown;
  /**
   * The namespaces the request touches, for namespace-scoped tokens; absent = refused for them;
   * `checked-by-handler` when the handler holds its caller to its namespace itself.
   */
  scope?: ((request: Record<string, unknown>) => ScopeTarget) | 'checked-by-handler';
}

export interface GrpcBinding {
  /** Fully qualified service name, e.g. `flipt.evaluation.EvaluationService`. */
  service: string;
  surface: GrpcSurface;
  /** By the method's name as in the .proto (e.g. `Boolean`, `ListFlags`). */
  methods: Record<string, GrpcMethod>;
}
