/**
 * `tracing.*`: the OpenTelemetry SDK, loaded only when tracing is enabled, exporting spans over
 * OTLP as Flipt does (`tracing.otlp.endpoint`: `http(s)://…` is OTLP/HTTP, `grpc://host:port` or a
 * bare `host:port` is OTLP/gRPC), sampled by `tracing.sampling_ratio` unless the caller's trace was
 * sampled, with the W3C trace-context and baggage propagators. Installs itself as the process's
 * `Tracing` (see @ensign/core's tracing.ts).
 */
import { installTracing, type SpanAttributes, type TraceCarrier, type Tracing, type TraceSpan } from '@ensign/core';
import type { Logger } from 'pino';
import type { EnsignConfig } from './config/config.schema.js';
import { buildInfo } from './version.js';

/** A running tracer: `shutdown` flushes the spans still buffered. */
export interface RunningTracing {
  shutdown(): Promise<void>;
}

/** Where and how the OTLP exporter sends: Flipt's reading of `tracing.otlp.endpoint`. */
export function otlpTarget(endpoint: string): { protocol: 'http' | 'grpc'; url: string } {
  const scheme = /^([a-z]+):\/\//i.exec(endpoint)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    const url = new URL(endpoint);
    if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1/traces';
    return { protocol: 'http', url: url.toString() };
  }
  const hostPort = scheme === 'grpc' ? endpoint.slice('grpc://'.length) : endpoint;
  return { protocol: 'grpc', url: `http://${hostPort}` };
}

/** Starts tracing when `tracing.enabled`; undefined (and nothing loaded) otherwise. */
export async function startTracing(config: EnsignConfig['tracing'], command: string, logger: Logger): Promise<RunningTracing | undefined> {
  if (!config.enabled) return undefined;
  const api = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider } = await import('@opentelemetry/sdk-trace');
  const target = otlpTarget(config.otlp.endpoint);
  const headers = config.otlp.headers;
  const exporter =
    target.protocol === 'http'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({ url: target.url, headers })
      : await grpcExporter(target.url, headers);

  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const propagators = [
    ...(config.propagators.includes('tracecontext') ? [new W3CTraceContextPropagator()] : []),
    ...(config.propagators.includes('baggage') ? [new W3CBaggagePropagator()] : []),
  ];
  api.propagation.setGlobalPropagator(new CompositePropagator({ propagators }));
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'ensign', 'service.version': buildInfo().version, 'ensign.command': command }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampling_ratio) }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('ensign', buildInfo().version);

  const headerGetter = {
    keys: (carrier: TraceCarrier) => Object.keys(carrier),
    get: (carrier: TraceCarrier, key: string) => carrier[key.toLowerCase()] ?? carrier[key],
  };
  const tracing: Tracing = {
    inSpan<T>(name: string, attributes: SpanAttributes, work: (span: TraceSpan) => T, carrier?: TraceCarrier): T {
      const parent = carrier === undefined ? api.context.active() : api.propagation.extract(api.context.active(), carrier, headerGetter);
      return tracer.startActiveSpan(name, { attributes }, parent, (span) => {
        const handle: TraceSpan = {
          setAttributes: (a) => void span.setAttributes(a),
          rename: (n) => void span.updateName(n),
          fail(err) {
            span.recordException(err instanceof Error ? err : String(err));
            span.setStatus({ code: api.SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
          },
        };
        let result: T;
        try {
          result = work(handle);
        } catch (err) {
          handle.fail(err);
          span.end();
          throw err;
        }
        if (result instanceof Promise) {
          return result.then(
            (value: unknown) => {
              span.end();
              return value;
            },
            (err: unknown) => {
              handle.fail(err);
              span.end();
              throw err;
            },
          ) as T;
        }
        span.end();
        return result;
      });
    },
  };
  installTracing(tracing);
  logger.info({ exporter: 'otlp', protocol: target.protocol, endpoint: target.url, samplingRatio: config.sampling_ratio }, 'tracing enabled');
  return {
    async shutdown() {
      installTracing(undefined);
      await provider.shutdown().catch((err: unknown) => logger.warn({ err }, 'flushing the last spans failed'));
    },
  };
}

async function grpcExporter(url: string, headers: Record<string, string>) {
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-grpc');
  const grpc = await import('@grpc/grpc-js');
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
  return new OTLPTraceExporter({ url, metadata, credentials: grpc.credentials.createInsecure() });
}
