/** `ensign evaluator`: a stateless evaluation process fed by the NATS snapshot bucket; it opens no database. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DigestSet, EMPTY_DIGEST_SET } from '@ensign/auth';
import { type DigestBus, type DigestWatch, openDigestBus } from '@ensign/bus';
import { errorBody, gatewayNotFound } from '@ensign/core';
import { createEvaluationHandler, createEvaluatorHealthHandler, createEvaluatorMetricsHandler, createHealthCheck, NatsSnapshotSource, type SnapshotStreams } from '@ensign/evaluator';
import { evaluationBindings, type RunningGrpcServer } from '@ensign/grpc/evaluation';
import type { Logger } from 'pino';
import { digestSetFromBus } from '../auth-digests.js';
import { configuredJwtVerifier, evaluatorAuth } from '../authentication.js';
import { countingOf } from '../counting.js';
import type { EnsignConfig } from '../config/config.schema.js';
import { grpcAuth, startGrpcListener } from '../grpc-listener.js';
import { listen, type RunningServer } from '../http-server.js';
import { openConfiguredBus } from '../snapshot-bus.js';
import { configuredTls } from '../tls-files.js';
import { openConfiguredUsageBus, startUsageShipper, type UsageShipper } from '../usage-shipping.js';

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
 * configuration that cannot run (exit 2) in one line.
 */
export async function evaluatorCommand(config: EnsignConfig, logger: Logger, stopSignal: Promise<string>, usage: (line: string) => void): Promise<number> {
  const bus = openConfiguredBus(config, logger, 'ensign-evaluator');
  if (bus === undefined) {
    usage('ensign: invalid configuration: nats.url: must be set for ensign evaluator, which reads its snapshots from NATS');
    return 2;
  }
  const source = new NatsSnapshotSource({
    bus,
    hash: config.evaluation.hash,
    maxNamespaces: config.evaluator.max_namespaces,
    maxBytes: config.evaluator.max_bytes,
    logger,
  });
  let server: RunningServer;
  let grpc: RunningGrpcServer | undefined;
  let streams: SnapshotStreams | undefined;
  // With authentication required, bearer tokens are checked against the digest set the server publishes.
  const required = config.authentication.required;
  const digestBus = required ? openDigestBus({ url: config.nats.url, bucket: config.nats.bucket, logger, name: 'ensign-evaluator-auth' }) : undefined;
  const digests = { current: EMPTY_DIGEST_SET };
  // Evaluation counts go to a control plane over NATS, which stores them.
  const usageBus = openConfiguredUsageBus(config, logger, 'ensign-evaluator-usage');
  let shipper: UsageShipper | undefined;
  /** Ships what is still counted (bounded), then closes the connection. */
  const closeUsage = async (): Promise<void> => {
    await shipper?.stop();
    await usageBus?.close();
  };
  let digestWatch: DigestWatch | undefined;
  const closeDigests = async (): Promise<void> => {
    await digestWatch?.stop();
    await digestBus?.close();
  };
  try {
    const tls = configuredTls(config.server);
    await source.start();
    if (digestBus !== undefined) digestWatch = await watchDigests(digestBus, digests);
    const auth = evaluatorAuth(config.authentication, () => digests.current, configuredJwtVerifier(config.authentication));
    // Evaluations are counted in one tally for every transport, read when /metrics is scraped and by the usage shipper.
    const counting = countingOf(config);
    if (usageBus !== undefined) shipper = startUsageShipper(config, logger, counting, (batch) => usageBus.shipUsage(batch), 'evaluator');
    const evaluate = createEvaluationHandler({ source, logger, bodyLimitBytes: config.server.body_limit, auth, hash: config.evaluation.hash, ...counting });
    const health = createEvaluatorHealthHandler(source);
    streams = evaluate.streams;
    const metrics = createEvaluatorMetricsHandler(source, Date.now, { evaluations: config.metrics.enabled ? counting.recorder : undefined, requests: counting.requests, streams: streams?.counts });
    // gRPC first: once /health answers, every port of the evaluator is served.
    const { recorder, requests } = counting;
    grpc = await startGrpcListener({
      config,
      logger,
      bindings: evaluationBindings({ source, ...(recorder === undefined ? {} : { recorder }) }),
      auth: grpcAuth(auth),
      readiness: createHealthCheck(source),
      tls,
      ...(requests === undefined ? {} : { calls: requests }),
    });
    server = await listen((req, res) => evaluate(req, res, () => health(req, res, () => metrics(req, res, () => notFound(req, res)))), {
      host: config.server.host,
      port: config.server.http_port,
      ...(tls === undefined ? {} : { tls }),
    });
  } catch (err) {
    logger.error({ err }, `start-up failed: ${(err as Error).message}`);
    await grpc?.shutdown(0).catch(() => undefined);
    await closeUsage().catch(() => undefined);
    await closeDigests().catch(() => undefined);
    await source.stop().catch(() => undefined);
    await bus.close().catch(() => undefined);
    return 1;
  }
  logger.info({ address: server.address, bucket: config.nats.bucket, authenticationRequired: required }, 'evaluator listening');

  const signal = await stopSignal;
  logger.info({ signal, timeoutMs: config.server.shutdown_timeout }, 'shutting down');
  // Streams never end by themselves: their clients reconnect to another instance.
  streams?.closeAll();
  const [inTime, grpcInTime] = await Promise.all([server.shutdown(config.server.shutdown_timeout), grpc.shutdown(config.server.shutdown_timeout)]);
  if (!inTime) logger.warn('shutdown timeout reached; remaining connections were closed');
  if (!grpcInTime) logger.warn('shutdown timeout reached; remaining gRPC calls were cancelled');
  try {
    // No evaluation is answered any more: what was counted since the last flush is shipped now.
    await closeUsage();
    await closeDigests();
    await source.stop();
    await bus.close();
  } catch (err) {
    logger.error({ err }, 'closing the NATS connection failed');
    return 1;
  }
  logger.info('stopped');
  return 0;
}
