/**
 * The gRPC listener (@grpc/grpc-js): every binding's methods behind authentication, the namespace
 * scope of scoped tokens and the one error mapping; the standard health service; optional TLS; a
 * graceful, bounded shutdown.
 */
import { type Metadata, Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData, status as GrpcStatus, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { ServiceDefinition } from '@grpc/proto-loader';
import { actorOf, runAs } from '@ensign/auth';
import { activeTracing } from '@ensign/core';
import { CallAuth, type CallAuthOptions } from './call-auth.js';
import type { GrpcBinding, GrpcMethod } from './grpc-binding.js';
import type { GrpcLogger } from './grpc-logger.js';
import { grpcStatusOf } from './grpc-status.js';
import { GrpcHealth, type HealthOptions } from './health-service.js';
import { serviceDefinition } from './proto-loading.js';

/** The certificate chain and private key (PEM) the server presents. */
export interface GrpcTls {
  cert: Buffer;
  key: Buffer;
}

export interface GrpcServerOptions {
  host: string;
  /** 0 takes a free port (tests). */
  port: number;
  bindings: readonly GrpcBinding[];
  auth: CallAuthOptions;
  /** Serves `grpc.health.v1.Health` when given. */
  health?: HealthOptions;
  /** Serves over TLS when given; plaintext (h2c) otherwise. */
  tls?: GrpcTls;
  /** Largest accepted request message in bytes; grpc-js's 4 MiB when not set. */
  maxMessageBytes?: number;
  logger: GrpcLogger;
  /** Looks up each binding's service in the protos; the project's protos when not set. */
  definitionOf?: (service: string) => ServiceDefinition;
  /** Hears of every call answered (for `/metrics`): service, method, status code, milliseconds. */
  calls?: CallRecorder;
}

/** What the server reports of each call it answered. */
export interface CallRecorder {
  grpc(service: string, method: string, code: number, ms: number): void;
}

/** A listening gRPC server. */
export interface RunningGrpcServer {
  /** `host:port` as clients dial it. */
  readonly address: string;
  readonly port: number;
  /**
   * Reports NOT_SERVING, ends health Watch streams, stops accepting calls and waits for the ones
   * in flight; after `timeoutMs` the rest are cancelled. Resolves `true` when everything finished in time.
   */
  shutdown(timeoutMs: number): Promise<boolean>;
}

type UnaryCall = ServerUnaryCall<Record<string, unknown>, unknown>;

/** The `authorization` metadata's first text value. */
function authorizationOf(metadata: Metadata): string | undefined {
  const first = metadata.get('authorization')[0];
  return typeof first === 'string' ? first : undefined;
}

/** `runCall` in a server span when tracing is on, continuing the caller's trace from the metadata. */
function tracedCall(binding: GrpcBinding, name: string, method: GrpcMethod, call: UnaryCall, auth: CallAuth): Promise<unknown> {
  const tracing = activeTracing();
  if (tracing === undefined) return runCall(binding, name, method, call, auth);
  const carrier = call.metadata.getMap() as Record<string, string>;
  const attributes = { 'rpc.system': 'grpc', 'rpc.service': binding.service, 'rpc.method': name };
  return tracing.inSpan(`${binding.service}/${name}`, attributes, () => runCall(binding, name, method, call, auth), carrier);
}

/** Authenticates, checks the namespace scope and (a management operation) authorization, runs the handler. */
async function runCall(binding: GrpcBinding, name: string, method: GrpcMethod, call: UnaryCall, auth: CallAuth): Promise<unknown> {
  const caller = await auth.callerOf(binding.surface, authorizationOf(call.metadata));
  const { scope } = method;
  if (caller?.namespace !== undefined && scope !== 'checked-by-handler') auth.policy.assertScope(binding.surface, caller, scope?.(call.request));
  await auth.authorize(binding.surface, name, call.request, caller);
  // Writes record who made them, as over HTTP.
  if (caller !== undefined) return runAs(actorOf(caller), () => method.handler(call.request, caller));
  return method.handler(call.request, caller);
}

/** The grpc-js implementation of one binding; throws on a method its service does not declare as unary. */
function implementationOf(binding: GrpcBinding, definition: ServiceDefinition, auth: CallAuth, logger: GrpcLogger, calls: CallRecorder | undefined): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(binding.methods)) {
    const attrs = definition[name];
    if (attrs === undefined) throw new Error(`gRPC service ${binding.service} declares no method ${name}`);
    if (attrs.requestStream || attrs.responseStream) throw new Error(`gRPC method ${attrs.path} streams; bindings serve unary methods only`);
    const path = attrs.path;
    implementation[name] = (call: UnaryCall, callback: sendUnaryData<unknown>) => {
      const started = performance.now();
      const done = (code: GrpcStatus): void => {
        const elapsed = performance.now() - started;
        calls?.grpc(binding.service, name, code, elapsed);
        logger.debug({ method: path, code, durationMs: Math.round(elapsed * 1000) / 1000 }, 'grpc call');
      };
      tracedCall(binding, name, method, call, auth).then(
        (response) => {
          callback(null, response);
          done(GrpcStatus.OK);
        },
        (err: unknown) => {
          const { code, details, serverFault } = grpcStatusOf(err);
          if (serverFault) logger.error({ err, method: path }, 'grpc call failed');
          callback({ code, details });
          done(code);
        },
      );
    };
  }
  return implementation;
}

const hostPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Starts serving; rejects when a binding does not match the protos or the port cannot be bound. */
export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const { logger } = options;
  const definitionOf = options.definitionOf ?? serviceDefinition;
  const auth = new CallAuth(options.auth);
  const server = new Server(options.maxMessageBytes === undefined ? {} : { 'grpc.max_receive_message_length': options.maxMessageBytes });
  for (const binding of options.bindings) {
    const definition = definitionOf(binding.service);
    server.addService(definition, implementationOf(binding, definition, auth, logger, options.calls));
  }

  const health = options.health === undefined ? undefined : new GrpcHealth(options.health, options.bindings.map((b) => b.service), logger);
  health?.addToServer(server);
  await health?.start();

  const credentials = options.tls === undefined ? ServerCredentials.createInsecure() : ServerCredentials.createSsl(null, [{ cert_chain: options.tls.cert, private_key: options.tls.key }], false);
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      server.bindAsync(hostPort(options.host, options.port), credentials, (err, bound) => (err === null ? resolve(bound) : reject(err)));
    });
  } catch (err) {
    await health?.close();
    server.forceShutdown();
    throw err;
  }

  return {
    address: hostPort(options.host, port),
    port,
    async shutdown(timeoutMs) {
      await health?.close();
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve(false);
        }, timeoutMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
