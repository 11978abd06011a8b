/**
 * `grpc.health.v1.Health` (grpc-health-check's implementation): the whole server (`""`) and every
 * served service answer SERVING only while the instance is ready, by the same check as `/health`
 * (the control plane: the database answers in time; an evaluator: its snapshots are loaded). The
 * check runs every `intervalMs`, so `Watch` streams see changes, and before every `Check`, which
 * therefore answers the state of the moment, as `/health` does.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Server, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { HEALTH_TIMEOUT_MS } from '@ensign/core';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import type { GrpcLogger } from './grpc-logger.js';

/** What readiness is checked with (the control plane's store and the evaluator's readiness check have this shape). */
export interface Readiness {
  /** Resolves when ready; rejects otherwise. */
  ping(): Promise<void>;
}

export interface HealthOptions {
  readiness: Readiness;
  /** How often readiness is checked for `Watch` streams; 1 s when not set. */
  intervalMs?: number;
  /** How long a check may take before it counts as not ready; `/health`'s limit when not set. */
  timeoutMs?: number;
}

/** The server-side calls the health handlers receive, as far as this wrapper touches them. */
interface HealthCall {
  on(event: 'cancelled', listener: () => void): unknown;
  end(): void;
}
/** Check (unary: call and callback) and Watch (server stream: call only), as grpc-health-check implements them. */
type HealthHandler = (call: HealthCall, callback?: unknown) => void;

export const DEFAULT_HEALTH_INTERVAL_MS = 1000;

export class GrpcHealth {
  private readonly implementation = new HealthImplementation();
  private readonly watches = new Set<HealthCall>();
  private status: ServingStatus | undefined;
  private probing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly options: HealthOptions,
    /** `""` (the whole server) is always reported too. */
    private readonly services: readonly string[],
    private readonly logger: GrpcLogger,
  ) {}

  /** Adds the Health service; `Check` answers once readiness has been checked, `Watch` streams are ended by `close`. */
  addToServer(server: Pick<Server, 'addService'>): void {
    this.implementation.addToServer({
      addService: (service, implementation) => {
        const check = implementation.check as HealthHandler | undefined;
        const watch = implementation.watch as HealthHandler | undefined;
        if (check === undefined || watch === undefined) throw new Error('grpc-health-check no longer provides check and watch');
        const wrapped: Record<string, HealthHandler> = {
          ...(implementation as Record<string, HealthHandler>),
          check: (call, callback) => void this.refresh().then(() => check(call, callback)),
          watch: (call) => {
            this.watches.add(call);
            call.on('cancelled', () => this.watches.delete(call));
            watch(call);
          },
        };
        // grpc-health-check builds its definition with its own copy of proto-loader: the same shape, another type.
        server.addService(service as unknown as ServiceDefinition, wrapped as unknown as UntypedServiceImplementation);
      },
    });
  }

  /** Checks readiness now and starts checking every interval. */
  async start(): Promise<void> {
    await this.refresh();
    if (this.closed || this.timer !== undefined) return;
    this.timer = setInterval(() => void this.refresh(), this.options.intervalMs ?? DEFAULT_HEALTH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Checks readiness (one check at a time; callers meanwhile share it) and reports the result. */
  refresh(): Promise<void> {
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** Shutting down: NOT_SERVING from now on, and every `Watch` stream ends (so a graceful shutdown need not wait for them). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.probing;
    this.report('NOT_SERVING');
    for (const call of this.watches) call.end();
    this.watches.clear();
  }

  private async probe(): Promise<void> {
    const timer = new AbortController();
    let ready: boolean;
    let failure: unknown;
    try {
      ready = await Promise.race([
        this.options.readiness.ping().then(() => true),
        sleep(this.options.timeoutMs ?? HEALTH_TIMEOUT_MS, false, { signal: timer.signal }),
      ]);
    } catch (err) {
      failure = err;
      ready = false;
    } finally {
      timer.abort();
    }
    if (this.closed) return;
    const status: ServingStatus = ready ? 'SERVING' : 'NOT_SERVING';
    if (status === this.status) return;
    if (this.status !== undefined) {
      if (ready) this.logger.info({}, 'grpc health: SERVING');
      else this.logger.warn(failure === undefined ? {} : { err: failure }, 'grpc health: NOT_SERVING');
    }
    this.report(status);
  }

  /** Sets every service's status; Watch streams hear only of changes. */
  private report(status: ServingStatus): void {
    if (status === this.status) return;
    this.status = status;
    for (const service of ['', ...this.services]) this.implementation.setStatus(service, status);
  }
}
