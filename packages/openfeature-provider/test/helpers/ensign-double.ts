/**
 * Ensign in the test's process: the real evaluation handler (snapshot, stream, in Ensign's format)
 * over an in-process source, beside a usage route that records the batches it is sent. The test
 * can stop it (every connection cut, as a crash would) and start it again on the same port, make it
 * refuse every request with a status, or hide its stream route.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UsageBatch } from '@ensign/core';
import type { HashMode, SnapshotDocument } from '@ensign/engine';
import { createEvaluationHandler, InProcessSnapshotSource } from '@ensign/evaluator';
import { hold } from '@ensign/testkit/snapshot-fixtures';

export interface EnsignDouble {
  readonly url: string;
  /** Holds a new version of `document`'s namespace, one revision up. */
  publish(document: SnapshotDocument): void;
  /** Batches the usage route stored, in order (a repeated id is stored once). */
  readonly batches: UsageBatch[];
  /** Every usage request, stored or not. */
  readonly usageRequests: number;
  /** What the usage route answers; 200 when not set. */
  usageStatus: number;
  /** When set, every request is answered with this status. */
  refuseWith: number | undefined;
  /** When true, the stream route answers 404 (a server or proxy without it). */
  hideStream: boolean;
  /** Streams opened so far. */
  readonly streams: number;
  /** Requests by path (without the query). */
  readonly requests: Map<string, number>;
  /** Cuts every connection and stops listening. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

type HandlerLogger = Parameters<typeof createEvaluationHandler>[0]['logger'];
const quiet = (): unknown => undefined;
const SILENT = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet, fatal: quiet, child: () => SILENT } as unknown as HandlerLogger;

const STREAM = /^\/client\/v2\/environments\/[^/]+\/namespaces\/[^/]+\/stream$/;

export async function startEnsignDouble(documents: SnapshotDocument[], hash: HashMode = 'murmur3'): Promise<EnsignDouble> {
  const source = new InProcessSnapshotSource();
  const revisions = new Map<string, number>();
  const publish = (document: SnapshotDocument) => {
    const revision = (revisions.get(document.namespace.key) ?? 0) + 1;
    revisions.set(document.namespace.key, revision);
    hold(source, document, revision, hash);
  };
  for (const document of documents) publish(document);
  source.markReady();
  const handler = createEvaluationHandler({ source, logger: SILENT, hash });
  const stored = new Set<string>();
  let server: Server | undefined;
  let port = 0;

  const double = {
    url: '',
    publish,
    batches: [] as UsageBatch[],
    usageRequests: 0,
    usageStatus: 200,
    refuseWith: undefined as number | undefined,
    hideStream: false,
    streams: 0,
    requests: new Map<string, number>(),
    async stop() {
      const running = server;
      server = undefined;
      handler.streams?.closeAll();
      if (running === undefined) return;
      running.closeAllConnections();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
    async start() {
      server = createServer(serve);
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      double.url = `http://127.0.0.1:${port}`;
    },
  };

  function usage(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      double.usageRequests++;
      if (double.usageStatus === 200) {
        const batch = JSON.parse(body) as UsageBatch;
        if (!stored.has(batch.id)) {
          stored.add(batch.id);
          double.batches.push(batch);
        }
      }
      res.writeHead(double.usageStatus, { 'Content-Type': 'application/json' });
      res.end(double.usageStatus === 200 ? '{}' : '{"code":5,"message":"Not Found","details":[]}');
    });
  }

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    double.requests.set(path, (double.requests.get(path) ?? 0) + 1);
    if (double.refuseWith !== undefined) {
      res.writeHead(double.refuseWith, { 'Content-Type': 'application/json' });
      res.end('{"code":16,"message":"request was not authenticated","details":[]}');
      return;
    }
    if (path === '/internal/v1/usage' && req.method === 'POST') {
      usage(req, res);
      return;
    }
    if (STREAM.test(path)) {
      if (double.hideStream) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{"code":5,"message":"Not Found","details":[]}');
        return;
      }
      double.streams++;
    }
    handler(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"code":5,"message":"Not Found","details":[]}');
    });
  }

  await double.start();
  return double;
}
