/**
 * HTTP requests and gRPC calls counted by route (method) and status, with their durations, in plain
 * numbers: one tally per process, shared by the evaluation routes, the control plane's routes and
 * the gRPC server, and written out when `/metrics` is scraped:
 * `http_server_request_duration_seconds{method,route,status}` and go-grpc-prometheus's
 * `grpc_server_handled_total{grpc_type,grpc_service,grpc_method,grpc_code}` and
 * `grpc_server_handling_seconds{grpc_type,grpc_service,grpc_method}`.
 */
import type { Registry } from 'prom-client';
import { HistogramTally, type MetricValue } from './histogram-tally.js';
import { registerTallies } from './tally-collector.js';

/** prom-client's default buckets (seconds), which go-grpc-prometheus uses too. */
export const REQUEST_BOUNDS_S: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What every transport reports of each request it answered. */
export interface RequestRecorder {
  /** `route` is the route's pattern (`/api/v1/namespaces/:namespaceKey/flags`), never the raw path. */
  http(method: string, route: string, status: number, ms: number): void;
  /** `code` is the gRPC status code's number. */
  grpc(service: string, method: string, code: number, ms: number): void;
}

interface GrpcMethodTally {
  service: string;
  method: string;
  codes: Map<number, number>;
  latency: HistogramTally;
}

/** go-grpc-prometheus's spelling of a status code: `OK`, `NotFound`, `InvalidArgument`, … */
const GRPC_CODES = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];
const grpcCodeName = (code: number): string => GRPC_CODES[code] ?? String(code);

export class RequestTally implements RequestRecorder {
  /** route → method → status. */
  private readonly routes = new Map<string, Map<string, Map<number, HistogramTally>>>();
  private readonly calls = new Map<string, GrpcMethodTally>();

  http(method: string, route: string, status: number, ms: number): void {
    let methods = this.routes.get(route);
    if (methods === undefined) this.routes.set(route, (methods = new Map()));
    let statuses = methods.get(method);
    if (statuses === undefined) methods.set(method, (statuses = new Map()));
    let latency = statuses.get(status);
    if (latency === undefined) statuses.set(status, (latency = new HistogramTally(REQUEST_BOUNDS_S)));
    latency.observe(ms / 1000);
  }

  grpc(service: string, method: string, code: number, ms: number): void {
    const key = `${service}/${method}`;
    let tally = this.calls.get(key);
    if (tally === undefined) this.calls.set(key, (tally = { service, method, codes: new Map(), latency: new HistogramTally(REQUEST_BOUNDS_S) }));
    tally.codes.set(code, (tally.codes.get(code) ?? 0) + 1);
    tally.latency.observe(ms / 1000);
  }

  /** HTTP requests and gRPC calls answered so far, added up when asked (a worker's share on /metrics). */
  answered(): number {
    let total = 0;
    for (const methods of this.routes.values()) for (const statuses of methods.values()) for (const latency of statuses.values()) total += latency.count;
    for (const { latency } of this.calls.values()) total += latency.count;
    return total;
  }

  httpValues(name: string): MetricValue[] {
    const values: MetricValue[] = [];
    for (const [route, methods] of this.routes) {
      for (const [method, statuses] of methods) for (const [status, latency] of statuses) values.push(...latency.values(name, { method, route, status: String(status) }));
    }
    return values;
  }

  grpcHandled(): MetricValue[] {
    const values: MetricValue[] = [];
    for (const { service, method, codes } of this.calls.values()) {
      for (const [code, count] of codes) values.push({ labels: { grpc_type: 'unary', grpc_service: service, grpc_method: method, grpc_code: grpcCodeName(code) }, value: count });
    }
    return values;
  }

  grpcHandling(name: string): MetricValue[] {
    const values: MetricValue[] = [];
    for (const { service, method, latency } of this.calls.values()) values.push(...latency.values(name, { grpc_type: 'unary', grpc_service: service, grpc_method: method }));
    return values;
  }
}

/** Registers the HTTP and gRPC request metrics of `tally` on `registry`. */
export function registerRequestMetrics(registry: Registry, tally: RequestTally): void {
  registerTallies(registry, [
    { name: 'http_server_request_duration_seconds', help: 'Duration of HTTP requests by method, route pattern and status', type: 'histogram', values: () => tally.httpValues('http_server_request_duration_seconds') },
    { name: 'grpc_server_handled_total', help: 'Total number of RPCs completed on the server, regardless of success or failure', type: 'counter', values: () => tally.grpcHandled() },
    { name: 'grpc_server_handling_seconds', help: 'Histogram of response latency (seconds) of gRPC that had been application-level handled by the server', type: 'histogram', values: () => tally.grpcHandling('grpc_server_handling_seconds') },
  ]);
}
