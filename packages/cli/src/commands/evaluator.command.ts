/** `ensign evaluator`: a stateless evaluation process fed by the NATS snapshot bucket; it opens no database. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DigestSet, EMPTY_DIGEST_SET } from '@ensign/auth';
import { type DigestBus, type DigestWatch, openDigestBus, type SnapshotBus } from '@ensign/bus';
import { errorBody, gatewayNotFound } from '@ensign/core';
import { createEvaluationHandler, createEvaluatorHealthHandler, createEvaluatorMetricsHandler, createEvaluatorRegistry, createHealthCheck, NatsSnapshotSource } from '@ensign/evaluator';
import { evaluationBindings } from '@ensign/grpc/evaluation';
import type { Logger } from 'pino';
import { digestSetFromBus } from '../auth-digests.js';
import { configuredJwtVerifier, evaluatorAuth } from '../authentication.js';
import { countingOf } from '../counting.js';
import type { EnsignConfig } from '../config/config.schema.js';
import { joinCluster } from '../evaluator-cluster/cluster-worker.js';
import { grpcAuth, startGrpcListener } from '../grpc-listener.js';
import { listen } from '../http-server.js';
import { Lifecycle, type LifecycleHooks, stopForSignal, unwindFailedStart } from '../lifecycle.js';
import { LISTENERS, stopGrpc, stopHttp } from '../listener-stops.js';
import { openConfiguredBus } from '../snapshot-bus.js';
import { configuredTls } from '../tls-files.js';
import { openConfiguredUsageBus, startUsageShipper } from '../usage-shipping.js';

const NOT_FOUND = JSON.stringify(errorBody(gatewayNotFound()));

/** Flipt's error body for any route the evaluator does not serve. */
function notFound(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(NOT_FOUND) });
  res.end(NOT_FOUND);
}

/**
 * The live token digests the control plane publishes, kept in memory: resolves once the set held
 * in the bucket (if any) is in, so the evaluator never starts out refusing valid tokens.
 */
async function watchDigests(bus: DigestBus, holder: { current: DigestSet }): Promise<DigestWatch> {
  let synced!: () => void;
  const initial = new Promise<void>((resolve) => (synced = resolve));
  const watch = await bus.watchDigests((set) => {
    holder.current = digestSetFromBus(set);
  }, synced);
  await initial;
  return watch;
}

/**
 * Runs the evaluator until `stopSignal` resolves; resolves the exit code. `usage` reports a
 * configuration that cannot run (exit 2) in one line; `hooks` wrap each component's start and stop
 * (tests fail each start in turn). In a worker of `ensign evaluator --workers N` it is one of the
 * evaluators the primary (evaluator-primary.ts) runs.
 */
export async function evaluatorCommand(config: EnsignConfig, processLogger: Logger, processStop: Promise<string>, usage: (line: string) => void, hooks: LifecycleHooks = {}): Promise<number> {
  if (config.nats.url === '') {
    usage('ensign: invalid configuration: nats.url: must be set for ensign evaluator, which reads its snapshots from NATS');
    return 2;
  }
  const cluster = joinCluster();
  // A worker names itself on every log line and also stops when the primary says so.
  const logger = cluster === undefined ? processLogger : processLogger.child({ worker: Number(cluster.slot) });
  const stopSignal = cluster === undefined ? processStop : Promise.race([processStop, cluster.stopRequested]);
  // With authentication required, bearer tokens are checked against the digest set the server publishes.
  const required = config.authentication.required;
  // Declared in start order; the stack stops them in reverse, after a failed start and on a signal alike.
  const stack = new Lifecycle(hooks);
  let address: string;
  try {
    const tls = configuredTls(config.server);
    const bus = await stack.start('snapshot bus', (onStop) => {
      // Always opened: nats.url is set (checked above).
      const opened = openConfiguredBus(config, logger, 'ensign-evaluator') as SnapshotBus;
      onStop(() => opened.close());
      return opened;
    });
    const source = await stack.start('snapshots', async (onStop) => {
      const following = new NatsSnapshotSource({
        bus,
        hash: config.evaluation.hash,
        maxNamespaces: config.evaluator.max_namespaces,
        maxBytes: config.evaluator.max_bytes,
        logger,
      });
      onStop(() => following.stop());
      await following.start();
      return following;
    });
    const digests = { current: EMPTY_DIGEST_SET };
    if (required) {
      const digestBus = await stack.start('token digest bus', (onStop) => {
        const opened = openDigestBus({ url: config.nats.url, bucket: config.nats.bucket, logger, name: 'ensign-evaluator-auth' });
        onStop(() => opened.close());
        return opened;
      });
      await stack.start('token digests', async (onStop) => {
        const watch = await watchDigests(digestBus, digests);
        onStop(() => watch.stop());
      });
    }
    const auth = evaluatorAuth(config.authentication, () => digests.current, configuredJwtVerifier(config.authentication));
    // Evaluations are counted in one tally for every transport, read when /metrics is scraped and by the usage shipper.
    const counting = countingOf(config);
    // Evaluation counts go to a control plane over NATS, which stores them.
    const usageBus = await stack.start('usage bus', (onStop) => {
      const opened = openConfiguredUsageBus(config, logger, 'ensign-evaluator-usage');
      if (opened !== undefined) onStop(() => opened.close());
      return opened;
    });
    if (usageBus !== undefined) {
      // Stopped once no evaluation is answered any more: what is still counted is shipped (bounded).
      await stack.start('usage shipper', (onStop) => {
        const shipper = startUsageShipper(config, logger, counting, (batch) => usageBus.shipUsage(batch), 'evaluator');
        if (shipper !== undefined) onStop(() => shipper.stop());
      });
    }
    const evaluate = createEvaluationHandler({ source, logger, bodyLimitBytes: config.server.body_limit, auth, hash: config.evaluation.hash, ...counting });
    const health = createEvaluatorHealthHandler(source);
    const streams = evaluate.streams;
    const tallies = { evaluations: config.metrics.enabled ? counting.recorder : undefined, requests: counting.requests, streams: streams?.counts };
    // A worker's scrape answers every worker's metrics summed; the primary gathers them.
    const metrics = cluster === undefined ? createEvaluatorMetricsHandler(source, Date.now, tallies) : cluster.metricsRoute(createEvaluatorRegistry(source, Date.now, tallies), counting.requests);
    if (cluster !== undefined) await stack.start('initial sync', () => cluster.synced(() => source.ready(), stopSignal));
    // gRPC first: once /health answers, every port of the evaluator is served.
    const { recorder, requests } = counting;
    await stack.start(
      'gRPC listener',
      async (onStop) => {
        const grpc = await startGrpcListener({
          config,
          logger,
          bindings: evaluationBindings({ source, ...(recorder === undefined ? {} : { recorder }) }),
          auth: grpcAuth(auth),
          readiness: createHealthCheck(source),
          tls,
          ...(requests === undefined ? {} : { calls: requests }),
        });
        onStop((ms) => stopGrpc(grpc, ms, logger));
      },
      { group: LISTENERS },
    );
    const server = await stack.start(
      'HTTP listener',
      async (onStop) => {
        const http = await listen((req, res) => evaluate(req, res, () => health(req, res, () => metrics(req, res, () => notFound(req, res)))), {
          host: config.server.host,
          port: config.server.http_port,
          ...(tls === undefined ? {} : { tls }),
        });
        onStop((ms) => stopHttp(http, streams, ms, logger));
        return http;
      },
      { group: LISTENERS },
    );
    address = server.address;
  } catch (err) {
    await unwindFailedStart(stack, logger, err);
    return 1;
  }
  if (cluster === undefined) logger.info({ address, bucket: config.nats.bucket, authenticationRequired: required }, 'evaluator listening');
  else {
    logger.info({ address }, 'evaluator worker listening');
    cluster.ready(address);
  }

  // After the listeners drain, what was counted since the last flush is shipped, and the NATS connections close.
  const clean = await stopForSignal(stack, logger, await stopSignal, config.server.shutdown_timeout);
  cluster?.leave();
  if (!clean) return 1;
  logger.info('stopped');
  return 0;
}
