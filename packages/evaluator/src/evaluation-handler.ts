/**
 * The evaluator's node:http request handler: `/evaluate/v1`, the client-side snapshot, OFREP and
 * the legacy evaluate routes. Each route is an evaluation operation (see
 * request/evaluation-operation.ts) and how its answer is written; the handler authenticates by the
 * access policy, reads the body and runs the operation. No I/O but reading the body, unless a
 * namespace must be fetched first (only that request waits). Any other request goes to `next`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AccessPolicy, type Caller, type Resolved, type Surface } from '@ensign/auth';
import { activeTracing, AppError, DEFAULT_BODY_LIMIT_BYTES, errorHeaders, type Fields, gatewayNotFound, isServerFault, methodNotAllowed, type Tracing } from '@ensign/core';
import type { HashMode } from '@ensign/engine';
import type { Logger } from 'pino';
import { parseJsonObject, queryFields, readBody } from './http/body-reader.js';
import { type HttpCall, HttpInput } from './http/http-call.js';
import { type EvaluatorAuthOptions, RequestCredentials } from './http/request-credentials.js';
import { sendBody, sendError, sendJson } from './http/respond.js';
import { type RouteMatch, RouteTable } from './http/route-table.js';
import { ofrepErrorBody, toOfrepError } from './ofrep/ofrep-errors.js';
import { batchOperation, booleanOperation, variantOperation } from './operations/evaluate.operations.js';
import { legacyBatchOperation, legacyEvaluateOperation } from './operations/legacy.operations.js';
import { ofrepBulkOperation, ofrepFlagOperation } from './operations/ofrep.operations.js';
import { snapshotOperation } from './operations/snapshot.operation.js';
import { type EvaluationRecorder, recorderOf } from './metrics/evaluation-tally.js';
import type { RequestRecorder } from './metrics/request-tally.js';
import type { EvaluationOperation } from './request/evaluation-operation.js';
import { asAppError, evaluationRun, NOT_READY, type Outcome, runEvaluation, scopeRefusal } from './request/run-evaluation.js';
import { sendAnswer, sendBatch, sendBoolean, sendVariant } from './routes/evaluate.routes.js';
import { bulkResponder, configurationBody, type OfrepOptions, sendFlag } from './routes/ofrep.routes.js';
import { sendSnapshot } from './routes/snapshot.route.js';
import { openStream, sendNotAcceptable, sendStreamError } from './routes/stream.routes.js';
import { acceptsEventStream, clientStreamOperation, ofrepStreamOperation } from './operations/stream.operation.js';
import { SnapshotStreams, type StreamedSource, type StreamRequest } from './streams/snapshot-streams.js';
import { framingOf, type StreamFraming } from './streams/stream-frames.js';
import { UNLIMITED_BATCH } from './service/evaluation-service.js';
import type { SnapshotSource } from './snapshot-source.js';

/** What the evaluation handler needs. */
export interface EvaluationHandlerOptions {
  source: SnapshotSource;
  logger: Logger;
  /** Largest accepted request body; 1 MiB when not set. */
  bodyLimitBytes?: number;
  /** Most requests in one batch; no cap when not set (`bodyLimitBytes` bounds a batch). */
  maxBatchSize?: number;
  /** Epoch milliseconds; `Date.now` when not set (tests pass a fixed clock). */
  now?: () => number;
  /** What `/ofrep/v1/configuration` advertises; polling disabled when not set. */
  ofrep?: OfrepOptions;
  /** Authentication of requests; every request is served when not set. */
  /**
   * `authorization.required` (`ensign server`): the client-side snapshot of a namespace is served
   * only to a caller its policy lets read the namespace's flags and segments; throws or rejects to refuse.
   */
  authorizeSnapshot?: (caller: Caller | undefined, namespaceKey: string) => void | Promise<void>;
  auth?: EvaluatorAuthOptions;
  /** Counts evaluations for `/metrics`; nothing is counted when not set. */
  recorder?: EvaluationRecorder;
  /** Counts answered requests by route and status for `/metrics`; nothing is counted when not set. */
  requests?: RequestRecorder;
  /** How long a snapshot stream may stay behind its namespace before it is dropped; 15 s when not set. */
  streamSlowAfterMs?: number;
  /** The hash the source compiles with (`evaluation.hash`), announced to Ensign's own clients (`?format=ensign`). */
  hash?: HashMode;
}

/** A node:http handler that serves its routes and calls `next()` for every other request. */
export type EvaluationHandler = ((req: IncomingMessage, res: ServerResponse, next: () => void) => void) & {
  /** Every route it serves, as `[method, path]` (`{name}` for parameters), for tests that must cover them all. */
  readonly routes: ReadonlyArray<readonly [method: string, path: string]>;
  /** The open snapshot streams (their counts, and `closeAll` for shutdown); none when the source cannot announce changes. */
  readonly streams: SnapshotStreams | undefined;
};

/** One route: its operation (none for a fixed answer) and how its answer is written. */
interface HttpRoute {
  /** The route's pattern, as `/metrics` names it. */
  path: string;
  method: 'GET' | 'POST';
  /** Whether it reads a JSON body. */
  body: boolean;
  /** The part of the API it belongs to: who must authenticate, what a scoped token may touch. */
  surface: Surface;
  /** Flipt's `{code, message, details}` or OFREP's error body. */
  errors: 'flipt' | 'ofrep';
  operation: EvaluationOperation<unknown, unknown> | undefined;
  respond: (call: HttpCall, answer: unknown) => void;
  /** Checked before the operation runs (authorization of the client-side snapshot); throws or rejects to refuse. */
  authorize?: (caller: Caller | undefined, params: readonly string[]) => void | Promise<void>;
  /** A stream route: its framing by `Accept` (failures are written in it) and which `Accept`s it takes at all. */
  stream?: { framing: (accept: string | undefined) => StreamFraming; accepts?: (accept: string | undefined) => boolean };
}

const EMPTY_BODY: Fields = Object.freeze({});
const PRETTY_ACCEPT = 'application/json+pretty';
/** After a refused body the connection is closed, so the rest of it is never read. */
const CLOSE: Record<string, string> = { Connection: 'close' };

/** What a route is besides its path: method, surface, operation and how its answer is written. */
type RouteSpecArgs<R, A> = [method: 'GET' | 'POST', surface: Surface, operation: EvaluationOperation<R, A> | undefined, respond: (call: HttpCall, answer: A) => void];

function route<R, A>(path: string, ...[method, surface, operation, respond]: RouteSpecArgs<R, A>): HttpRoute {
  return {
    path,
    method,
    body: method === 'POST',
    surface,
    errors: surface === 'ofrep' ? 'ofrep' : 'flipt',
    operation: operation as EvaluationOperation<unknown, unknown> | undefined,
    respond: respond as HttpRoute['respond'],
  };
}

/** Creates the evaluation handler over `options.source`. */
export function createEvaluationHandler(options: EvaluationHandlerOptions): EvaluationHandler {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const policy = options.auth === undefined ? AccessPolicy.OPEN : new AccessPolicy(options.auth);
  const credentials = options.auth === undefined ? undefined : new RequestCredentials(options.auth, now);
  const hash = options.hash === undefined ? {} : { hash: options.hash };
  const run = evaluationRun(options.source, { now, maxBatchSize: options.maxBatchSize ?? UNLIMITED_BATCH, ...recorderOf(options), ...hash }, policy);
  const limitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const configuration = configurationBody(options.ofrep ?? { cacheEnabled: false, cacheTtlMs: 0 });
  const streams = isStreamed(options.source)
    ? new SnapshotStreams({ source: options.source, logger, clock: { now }, ...hash, ...(options.streamSlowAfterMs === undefined ? {} : { slowAfterMs: options.streamSlowAfterMs }) })
    : undefined;

  const routes = new RouteTable<HttpRoute>();
  /** Adds the route at `path`, the pattern `/metrics` and spans name it by. */
  const at = <R, A>(path: string, ...spec: RouteSpecArgs<R, A>) => routes.add(path, route(path, ...spec));
  at('/evaluate/v1/variant', 'POST', 'evaluation', variantOperation, sendVariant);
  at('/evaluate/v1/boolean', 'POST', 'evaluation', booleanOperation, sendBoolean);
  at('/evaluate/v1/batch', 'POST', 'evaluation', batchOperation, sendBatch);
  at('/evaluate/v1/namespaces/{ns}/variant', 'POST', 'evaluation', variantOperation, sendVariant);
  at('/evaluate/v1/namespaces/{ns}/boolean', 'POST', 'evaluation', booleanOperation, sendBoolean);
  const snapshotPath = '/internal/v1/evaluation/snapshot/namespace/{key}';
  const authorizeSnapshot = options.authorizeSnapshot;
  routes.add(snapshotPath, {
    ...route(snapshotPath, 'GET', 'evaluation', snapshotOperation, sendSnapshot),
    ...(authorizeSnapshot === undefined ? {} : { authorize: (caller: Caller | undefined, params: readonly string[]) => authorizeSnapshot(caller, params[0] ?? '') }),
  });
  at('/ofrep/v1/configuration', 'GET', 'ofrep', undefined, (call) => sendBody(call.res, 200, configuration));
  at('/ofrep/v1/evaluate/flags', 'POST', 'ofrep', ofrepBulkOperation, bulkResponder(streams !== undefined));
  at('/ofrep/v1/evaluate/flags/{key}', 'POST', 'ofrep', ofrepFlagOperation, sendFlag);
  at('/api/v1/evaluate', 'POST', 'management', legacyEvaluateOperation, sendAnswer);
  at('/api/v1/batch-evaluate', 'POST', 'management', legacyBatchOperation, sendAnswer);
  at('/api/v1/namespaces/{ns}/evaluate', 'POST', 'management', legacyEvaluateOperation, sendAnswer);
  at('/api/v1/namespaces/{ns}/batch-evaluate', 'POST', 'management', legacyBatchOperation, sendAnswer);
  if (streams !== undefined) {
    const open = openStream(streams);
    const streamAt = (path: string, surface: Surface, operation: EvaluationOperation<StreamRequest, StreamRequest>, stream: NonNullable<HttpRoute['stream']>) =>
      routes.add(path, { ...route(path, 'GET', surface, operation, open), stream });
    streamAt('/client/v2/environments/{env}/namespaces/{ns}/stream', 'evaluation', clientStreamOperation, { framing: framingOf });
    streamAt('/ofrep/v1/_stream/{env}/{ns}/events', 'ofrep', ofrepStreamOperation, { framing: () => 'sse', accepts: acceptsEventStream });
  }

  const { requests } = options;
  /** Counts an answered request; `started` is `performance.now()` when it was routed. */
  const answered = (route: HttpRoute, res: ServerResponse, started: number): void => {
    if (requests !== undefined) requests.http(route.method, route.path, res.statusCode, performance.now() - started);
  };

  /** Answers a failure in the route's error format; a fault of ours is logged, its cause never shown. */
  function fail(route: HttpRoute, res: ServerResponse, started: number, failure: unknown, extraHeaders?: Record<string, string>): void {
    const err = asAppError(failure);
    if (isServerFault(err)) logger.error({ err: err.cause ?? err }, 'evaluation failed');
    const headers = errorHeaders(err);
    if (headers !== undefined) extraHeaders = { ...extraHeaders, ...headers };
    if (route.stream !== undefined) {
      sendStreamError(res, err, route.stream.framing(res.req.headers.accept), extraHeaders);
    } else if (route.errors === 'ofrep') {
      const ofrep = toOfrepError(err);
      sendJson(res, ofrep.httpStatus, ofrepErrorBody(ofrep), undefined, extraHeaders);
    } else {
      sendError(res, err, extraHeaders);
    }
    answered(route, res, started);
  }

  function settle(route: HttpRoute, call: HttpCall, started: number, outcome: Outcome<unknown>): void {
    if (outcome instanceof AppError) {
      fail(route, call.res, started, outcome);
      return;
    }
    try {
      route.respond(call, outcome);
    } catch (err) {
      fail(route, call.res, started, err);
      return;
    }
    answered(route, call.res, started);
  }

  function evaluate(route: HttpRoute, call: HttpCall, input: HttpInput, caller: Caller | undefined, started: number): void {
    const operation = route.operation as EvaluationOperation<unknown, unknown>;
    const outcome = runEvaluation(run, operation, input, route.surface, caller, started);
    if (outcome instanceof Promise) outcome.then((late) => settle(route, call, started, late));
    else settle(route, call, started, outcome);
  }

  /** Serves a matched route to a request let through by the access policy. */
  function serve(req: IncomingMessage, res: ServerResponse, route: HttpRoute, params: string[], pretty: boolean, caller: Caller | undefined, started: number): void {
    // Until the initial sync no route answers, so nothing reflects a partial state.
    if (!run.source.ready()) {
      fail(route, res, started, NOT_READY);
      return;
    }
    const authorize = route.authorize;
    if (authorize !== undefined) {
      let checked: void | Promise<void>;
      try {
        checked = authorize(caller, params);
      } catch (err) {
        fail(route, res, started, err);
        return;
      }
      if (checked !== undefined) {
        checked.then(
          () => serveAuthorized(req, res, route, params, pretty, caller, started),
          (err: unknown) => fail(route, res, started, err),
        );
        return;
      }
    }
    serveAuthorized(req, res, route, params, pretty, caller, started);
  }

  function serveAuthorized(req: IncomingMessage, res: ServerResponse, route: HttpRoute, params: string[], pretty: boolean, caller: Caller | undefined, started: number): void {
    const accept = req.headers.accept;
    const call: HttpCall = { res, headers: req.headers, style: { pretty: pretty || (accept !== undefined && accept.includes(PRETTY_ACCEPT)) } };
    if (route.operation === undefined) {
      // A fixed answer touches no namespace: a scoped caller may not have it.
      const refused = caller?.namespace === undefined ? undefined : scopeRefusal(policy, route.surface, caller);
      settle(route, call, started, refused);
      return;
    }
    if (!route.body) {
      // COMPAT(flipt): the gateway reads a GET's request fields from the query.
      evaluate(route, call, new HttpInput(queryFields(req.url) ?? EMPTY_BODY, params, req.headers), caller, started);
      return;
    }
    readBody(req, limitBytes, (err, text) => {
      if (text === undefined) {
        fail(route, res, started, err, err instanceof AppError && err.httpStatus === 413 ? CLOSE : undefined);
        return;
      }
      let body: Fields;
      try {
        body = parseJsonObject(text);
      } catch (parseErr) {
        fail(route, res, started, parseErr);
        return;
      }
      evaluate(route, call, new HttpInput(body, params, req.headers), caller, started);
    });
  }

  /** One server span per request when tracing is on: it ends when the answer has been written. */
  const traced = (tracing: Tracing, req: IncomingMessage, res: ServerResponse, route: HttpRoute, serve: () => void): Promise<void> =>
    tracing.inSpan(`${route.method} ${route.path}`, { 'http.request.method': route.method, 'http.route': route.path }, (span) =>
      new Promise<void>((resolve) => {
        res.once('finish', () => {
          span.setAttributes({ 'http.response.status_code': res.statusCode });
          if (res.statusCode >= 500) span.fail(new Error(`HTTP ${res.statusCode}`));
          resolve();
        });
        res.once('close', resolve);
        serve();
      }), req.headers);

  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const match = routes.match(req.method ?? 'GET', req.url ?? '/');
    const tracing = activeTracing();
    // A stream lives as long as its client: it gets no span.
    if (tracing !== undefined && match?.kind === 'route' && match.route.stream === undefined) void traced(tracing, req, res, match.route, () => dispatch(req, res, next, match));
    else dispatch(req, res, next, match);
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse, next: () => void, match: RouteMatch<HttpRoute> | undefined): void => {
    if (match === undefined) {
      next();
      return;
    }
    if (match.kind === 'not-found') {
      sendError(res, gatewayNotFound());
      return;
    }
    if (match.kind === 'method-not-allowed') {
      sendError(res, methodNotAllowed());
      return;
    }
    const { route, params, pretty } = match;
    const started = performance.now();
    if (route.stream?.accepts?.(req.headers.accept) === false) {
      sendNotAcceptable(res);
      answered(route, res, started);
      return;
    }
    let caller: Resolved;
    try {
      caller = policy.callerOf(route.surface, () => credentials?.resolve(req));
    } catch (err) {
      fail(route, res, started, err);
      return;
    }
    if (caller instanceof Promise) {
      caller.then(
        (verified) => serve(req, res, route, params, pretty, verified, started),
        (err: unknown) => fail(route, res, started, err),
      );
      return;
    }
    serve(req, res, route, params, pretty, caller, started);
  };
  return Object.assign(handle, { routes: routes.list(), streams });
}

const isStreamed = (source: SnapshotSource): source is StreamedSource =>
  source.onChange !== undefined && source.pin !== undefined && source.unpin !== undefined;
