/**
 * A real gRPC server with the `flipt.Flipt` binding over a migrated SQLite store, a grpc-js client
 * loading the project's protos, and the control plane's HTTP app on the same store for parity.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessPolicy, type Caller, type Credential } from '@ensign/auth';
import { createApp, managementServices, SnapshotPipeline } from '@ensign/control-plane';
import { InProcessSnapshotSource, type SnapshotSource } from '@ensign/evaluator';
import { openStore, type SqlStore } from '@ensign/store';
import { type Client, credentials, makeGenericClientConstructor, Metadata, type ServiceError } from '@grpc/grpc-js';
import { pino } from 'pino';
import { type RunningGrpcServer, serviceDefinition, startGrpcServer } from '../src/index.js';
import { fliptBinding } from '../src/services/flipt.service.js';

/** The bearer token the harness's authenticator ties to namespace `team` (when `scopedTokens` is on). */
export const TEAM_TOKEN = 'team-token';

export interface FliptHarnessOptions {
  /** Serves Evaluate/BatchEvaluate over snapshots published from the store. */
  evaluation?: boolean;
  /** What Evaluate/BatchEvaluate read instead of the published snapshots (with `evaluation`). */
  wrapSource?: (published: SnapshotSource) => SnapshotSource;
  /** Requires authentication: `Bearer team-token` is a token scoped to namespace `team`. */
  scopedTokens?: boolean;
  /** Refuses direct writes to namespaces the store's change policies protect. */
  protection?: boolean;
}

export interface HttpReply {
  status: number;
  json: any;
}

export interface FliptHarness {
  store: SqlStore;
  /** A unary call; resolves with the response message, rejects with the grpc-js ServiceError. */
  call<T = any>(method: string, request: object, token?: string): Promise<T>;
  /** The ServiceError a call fails with (fails the test helper when it succeeds). */
  callError(method: string, request: object, token?: string): Promise<ServiceError>;
  /** The control plane's HTTP API on the same store. */
  http(method: string, path: string, json?: unknown): Promise<HttpReply>;
  /** Resolves once the snapshots of every write so far are published (with `evaluation`). */
  published(): Promise<void>;
  close(): Promise<void>;
}

const silent = pino({ level: 'silent' });

/** A generated client method, called with a request, metadata and a callback. */
type UnaryMethod = (request: object, metadata: Metadata, callback: (err: ServiceError | null, response: unknown) => void) => void;

const scopedAuthenticator = {
  authenticate: async (credential: Credential): Promise<Caller | undefined> => {
    if (credential.kind === 'token' && credential.token === TEAM_TOKEN) return { method: 'METHOD_TOKEN', namespace: 'team', via: 'bearer' };
    return undefined;
  },
};

export async function startFlipt(options: FliptHarnessOptions = {}): Promise<FliptHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-grpc-'));
  const store = await openStore({ url: `file:${join(dir, 'x.db')}` });
  await store.migrate();

  let source: SnapshotSource | undefined;
  if (options.evaluation === true) {
    const held = new InProcessSnapshotSource();
    const pipeline = new SnapshotPipeline({ store, holder: held, compile: { hash: 'crc32' }, logger: silent });
    store.onCommit(pipeline.onCommit);
    await pipeline.loadAll();
    source = options.wrapSource?.(held) ?? held;
  }

  const grpc: RunningGrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    bindings: [fliptBinding({ services: managementServices(store), ...(source === undefined ? {} : { source }) })],
    auth: {
      policy: new AccessPolicy({ required: options.scopedTokens === true, exclude: { management: false, evaluation: false, ofrep: false } }),
      authenticator: scopedAuthenticator,
      ...(options.protection === true ? { protection: store.changePolicies } : {}),
    },
    logger: silent,
  });
  const Flipt = makeGenericClientConstructor(serviceDefinition('flipt.Flipt'), 'Flipt');
  const client = new Flipt(grpc.address, credentials.createInsecure()) as Client & Record<string, UnaryMethod | undefined>;

  const http: Server = createServer(createApp({ store, logger: silent }).callback());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const call = <T>(method: string, request: object, token?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const metadata = new Metadata();
      if (token !== undefined) metadata.set('authorization', `Bearer ${token}`);
      const fn = client[method];
      if (fn === undefined) throw new Error(`no client method ${method}`);
      fn.call(client, request, metadata, (err, response) => (err === null ? resolve(response as T) : reject(err)));
    });

  return {
    store,
    call,
    async callError(method, request, token) {
      try {
        await call(method, request, token);
      } catch (err) {
        return err as ServiceError;
      }
      throw new Error(`${method} succeeded; an error was expected`);
    },
    async http(method, path, json) {
      const res = await fetch(base + path, {
        method,
        ...(json === undefined ? {} : { body: JSON.stringify(json), headers: { 'content-type': 'application/json' } }),
      });
      const text = await res.text();
      return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
    },
    async published() {
      // Writes answer once their namespace's version is held: nothing is left to wait for.
    },
    async close() {
      client.close();
      await grpc.shutdown(1000);
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Drops proto-loader's markers of set optional fields (`_metadata`, `_defaultVariant`) so messages compare as data. */
export function withoutOneofMarkers<T>(message: T): T {
  if (Array.isArray(message)) return message.map(withoutOneofMarkers) as T;
  if (typeof message !== 'object' || message === null) return message;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) if (!key.startsWith('_')) out[key] = withoutOneofMarkers(value);
  return out as T;
}
