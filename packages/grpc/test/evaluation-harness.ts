/**
 * For the evaluation service tests: hand-written snapshot documents compiled by the real engine and
 * held by a real in-process source, the real gRPC server with the evaluation bindings, and a
 * grpc-js client of `flipt.evaluation` loaded from the .proto file on its own.
 */
import { type Client, credentials, loadPackageDefinition, Metadata, type ServiceError } from '@grpc/grpc-js';
import { loadSync, type ServiceDefinition } from '@grpc/proto-loader';
import { AccessPolicy, type Caller } from '@ensign/auth';
import { compileSnapshot, type SnapshotDocument } from '@ensign/engine';
import type { HeldSnapshot, SnapshotSource } from '@ensign/evaluator';
import { snapshotOf } from '@ensign/testkit/snapshot-fixtures';
export { defaultDocument, otherDocument, readySource } from '@ensign/testkit/snapshot-fixtures';
import type { ExecutionContext } from 'ava';
import { evaluationBindings } from '../src/services/evaluation.service.js';
import { startGrpcServer } from '../src/grpc-server.js';
import type { GrpcLogger } from '../src/grpc-logger.js';
import { loadOptions } from '../src/proto-loading.js';

/** The evaluation clock of every test: 2025-01-01T00:00:00.123Z. */
export const FIXED_NOW = Date.parse('2025-01-01T00:00:00.123Z');
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `document` compiled as the evaluator holds it (Flipt's crc32 bucketing). */
export function heldOf(document: SnapshotDocument, revision = 1): HeldSnapshot {
  return { snapshot: snapshotOf(document, revision), compiled: compileSnapshot(document, { hash: 'crc32' }) };
}

/** A source that holds nothing at first and fetches `documents` on demand, counting the loads. */
export class FetchingSource implements SnapshotSource {
  readonly loads: string[] = [];
  private readonly held = new Map<string, HeldSnapshot>();

  constructor(private readonly documents: Map<string, SnapshotDocument>) {}

  get(namespaceKey: string): HeldSnapshot | undefined {
    return this.held.get(namespaceKey);
  }

  ready(): boolean {
    return true;
  }

  fetchable(namespaceKey: string): boolean {
    return !this.held.has(namespaceKey) && this.documents.has(namespaceKey);
  }

  async load(namespaceKey: string): Promise<HeldSnapshot | undefined> {
    this.loads.push(namespaceKey);
    await new Promise((resolve) => setImmediate(resolve));
    const document = this.documents.get(namespaceKey);
    if (document === undefined) return undefined;
    const held = heldOf(document);
    this.held.set(namespaceKey, held);
    return held;
  }
}

const silent: GrpcLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** `flipt.evaluation` alone, loaded as every client and service of the project loads protos. */
export const evaluationProto = loadSync('flipt/evaluation/evaluation.proto', loadOptions());

/** A reply of a unary call: the message, or the status it failed with. */
export type Reply<T = any> = { ok: true; message: T } | { ok: false; error: ServiceError };

/** A connected client of both evaluation services. */
export interface EvaluationClient {
  call<T = any>(service: 'EvaluationService' | 'DataService', method: string, request: object, token?: string): Promise<Reply<T>>;
}

export interface StartOptions {
  source: SnapshotSource;
  maxBatchSize?: number;
  /** Requires a credential on the evaluation surface and resolves every token to this caller. */
  caller?: Caller;
}

/** Starts the gRPC server with the evaluation bindings on 127.0.0.1 (free port) and connects a client; both end with the test. */
export async function startEvaluationGrpc(t: ExecutionContext<unknown>, options: StartOptions): Promise<EvaluationClient> {
  const { caller } = options;
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    bindings: evaluationBindings({ source: options.source, now: () => FIXED_NOW, ...(options.maxBatchSize === undefined ? {} : { maxBatchSize: options.maxBatchSize }) }),
    auth: {
      policy: new AccessPolicy({ required: caller !== undefined, exclude: { management: false, evaluation: false, ofrep: false } }),
      authenticator: { authenticate: async (credential) => (credential.kind === 'none' ? undefined : caller) },
    },
    logger: silent,
    definitionOf: (name) => evaluationProto[name] as ServiceDefinition,
  });
  const loaded = loadPackageDefinition(evaluationProto) as any;
  const clients: Record<string, Client> = {
    EvaluationService: new loaded.flipt.evaluation.EvaluationService(server.address, credentials.createInsecure()),
    DataService: new loaded.flipt.evaluation.DataService(server.address, credentials.createInsecure()),
  };
  t.teardown(async () => {
    for (const client of Object.values(clients)) client.close();
    await server.shutdown(1000);
  });
  return {
    call: (service, method, request, token) =>
      new Promise((resolve) => {
        const metadata = new Metadata();
        if (token !== undefined) metadata.set('authorization', `Bearer ${token}`);
        const client = clients[service] as any;
        client[method](request, metadata, (error: ServiceError | null, message: any) => resolve(error === null ? { ok: true, message } : { ok: false, error }));
      }),
  };
}

/** The message of a successful reply; fails the test with the status otherwise. */
export function messageOf<T>(t: ExecutionContext<unknown>, reply: Reply<T>): T {
  if (!reply.ok) t.fail(`gRPC status ${reply.error.code}: ${reply.error.details}`);
  return (reply as { message: T }).message;
}
