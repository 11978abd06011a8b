/**
 * The OpenFeature provider for Node (`@openfeature/server-sdk`): one namespace evaluated in the
 * caller's process with Ensign's engine, from snapshots Ensign streams (or serves to polls, or a
 * bootstrap gives), with flagd's lifecycle, change events, and evaluation counts sent back.
 */
import type { HashMode } from '@ensign/engine';
import {
  DefaultLogger,
  ErrorCode,
  type EvaluationContext,
  GeneralError,
  type Hook,
  type JsonValue,
  type Logger,
  OpenFeatureEventEmitter,
  type Provider,
  ProviderEvents,
  ProviderFatalError,
  type ResolutionDetails,
} from '@openfeature/server-sdk';
import { type SharedConnection, sharedConnection } from './connection/shared-connections.js';
import { ProviderLifecycle, type ProviderState } from './lifecycle/provider-lifecycle.js';
import { type EnsignProviderOptions, MAX_COUNTS_PER_BATCH, type ProviderSettings, providerSettings, STABLE_STREAM_MS, STREAM_RETRY_MS } from './provider-options.js';
import { FlagAnswers } from './resolve/flag-answers.js';
import { loadBootstrap } from './snapshot/bootstrap.js';
import { BoundaryAlarm } from './snapshot/boundary-alarm.js';
import { HeldNamespace } from './snapshot/held-namespace.js';
import { type ReceivedSnapshot, receivedSnapshot } from './snapshot/received-snapshot.js';
import { SnapshotFeed } from './source/snapshot-feed.js';
import { UsageCounter } from './usage/usage-counter.js';

/** How long closing may spend sending the last counts. */
const CLOSE_FLUSH_MS = 2_000;

/** `initialize`'s wait for the first snapshot: how it ended. */
type FirstSnapshot = { kind: 'held' } | { kind: 'fatal'; reason: string };

export class EnsignProvider implements Provider {
  readonly metadata = { name: 'ensign' } as const;
  readonly runsOn = 'server' as const;
  readonly events = new OpenFeatureEventEmitter();
  readonly hooks: Hook[] = [];
  private readonly settings: ProviderSettings;
  private readonly logger: Logger;
  private readonly lifecycle: ProviderLifecycle;
  private readonly counter: UsageCounter | undefined;
  private readonly answers: FlagAnswers;
  private readonly alarm: BoundaryAlarm;
  private held: HeldNamespace | undefined;
  private connection: SharedConnection | undefined;
  private feed: SnapshotFeed | undefined;
  private stopCounting: (() => void) | undefined;
  /** Settles `initialize`'s wait; undefined once it is over. */
  private settleFirst: ((outcome: FirstSnapshot) => void) | undefined;
  private initialized = false;
  private closed = false;

  constructor(options: EnsignProviderOptions) {
    this.settings = providerSettings(options);
    this.logger = options.logger ?? new DefaultLogger();
    this.lifecycle = new ProviderLifecycle(this.settings, {
      ready: () => this.events.emit(ProviderEvents.Ready, { message: `snapshot of ${this.settings.namespace} held` }),
      stale: (message) => this.events.emit(ProviderEvents.Stale, { message }),
      error: (message) => this.events.emit(ProviderEvents.Error, { message }),
    });
    this.counter = this.settings.counts === undefined ? undefined : new UsageCounter(this.settings.namespace);
    this.answers = new FlagAnswers(() => this.held, this.counter, { now: Date.now });
    this.alarm = new BoundaryAlarm(Date.now, (flagsChanged) => this.changed(flagsChanged));
  }

  /** Where the provider stands in flagd's lifecycle (the SDK keeps its own copy from the events). */
  get state(): ProviderState {
    return this.lifecycle.state;
  }

  /** The namespace revision of the snapshot answered from, when the server said it. */
  get snapshotRevision(): number | undefined {
    return this.held?.revision;
  }

  /** The hash the held snapshot is bucketed with. */
  get hash(): HashMode | undefined {
    return this.held?.hash;
  }

  /**
   * Starts following Ensign and resolves with the first snapshot: at once from a bootstrap, else
   * within `initTimeoutMs`. Rejects with `ProviderFatalError` when Ensign refuses the credential,
   * and with a `GeneralError` when no snapshot came in time; the provider keeps trying and says
   * READY when one comes.
   */
  async initialize(): Promise<void> {
    if (this.initialized) return;
    this.initialized = true;
    const { bootstrap, url } = this.settings;
    if (bootstrap !== undefined) this.accept(await loadBootstrap(bootstrap));
    if (url !== undefined) this.follow(url);
    if (this.held !== undefined) {
      this.lifecycle.holds(false);
      return;
    }
    const outcome = await this.firstSnapshot();
    if (outcome.kind === 'fatal') throw new ProviderFatalError(outcome.reason);
  }

  async onClose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.feed?.stop();
    this.alarm.stop();
    this.lifecycle.stop();
    this.stopCounting?.();
    await this.connection?.release(CLOSE_FLUSH_MS);
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext): Promise<ResolutionDetails<boolean>> {
    return Promise.resolve(this.answers.boolean(flagKey, defaultValue, context));
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext): Promise<ResolutionDetails<string>> {
    return Promise.resolve(this.answers.string(flagKey, defaultValue, context));
  }

  resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext): Promise<ResolutionDetails<number>> {
    return Promise.resolve(this.answers.number(flagKey, defaultValue, context));
  }

  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T, context: EvaluationContext): Promise<ResolutionDetails<T>> {
    return Promise.resolve(this.answers.object(flagKey, defaultValue, context));
  }

  /** The answers without the promise the SDK needs: for callers that evaluate in a loop (benchmarks, tests). */
  get direct(): FlagAnswers {
    return this.answers;
  }

  private follow(url: string): void {
    const { settings } = this;
    const counts = settings.counts;
    const shipper = counts === undefined ? undefined : { flushIntervalMs: counts.flushIntervalMs, maxPendingBatches: counts.maxPendingBatches, maxCountsPerBatch: MAX_COUNTS_PER_BATCH, requestTimeoutMs: settings.requestTimeoutMs, logger: this.logger };
    this.connection = sharedConnection(url, settings.token, shipper);
    const { counter } = this;
    if (counter !== undefined) this.stopCounting = this.connection.shipper?.add(() => counter.take());
    this.feed = new SnapshotFeed(
      {
        endpoint: this.connection.endpoint,
        namespaceKey: settings.namespace,
        digest: () => this.held?.digest,
        pollIntervalMs: settings.pollIntervalMs,
        requestTimeoutMs: settings.requestTimeoutMs,
        reconnect: settings.reconnect,
        stableAfterMs: STABLE_STREAM_MS,
        streamRetryMs: STREAM_RETRY_MS,
      },
      {
        snapshot: (body, etag) => this.received(body, etag),
        up: () => this.lifecycle.up(),
        down: (reason) => this.lifecycle.down(reason),
        fatal: (reason) => this.fatal(reason),
        warn: (message) => this.logger.warn(`ensign provider (${settings.namespace}): ${message}`),
      },
    );
    this.lifecycle.start();
    this.feed.start();
  }

  private firstSnapshot(): Promise<FirstSnapshot> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settleFirst = undefined;
        this.lifecycle.initFailed();
        reject(new GeneralError(`no snapshot of namespace "${this.settings.namespace}" from ${this.settings.url} within ${this.settings.initTimeoutMs} ms; still trying`));
      }, this.settings.initTimeoutMs);
      this.settleFirst = (outcome) => {
        clearTimeout(timer);
        this.settleFirst = undefined;
        resolve(outcome);
      };
    });
  }

  private received(body: unknown, etag: string | undefined): void {
    let received: ReceivedSnapshot;
    try {
      received = receivedSnapshot(body, etag);
    } catch (err) {
      this.logger.warn(`ensign provider (${this.settings.namespace}): ${(err as Error).message}`);
      return;
    }
    this.accept(received);
  }

  /** Holds `received` unless it is older than, or the same as, the snapshot held. */
  private accept(received: ReceivedSnapshot): void {
    const previous = this.held;
    if (previous !== undefined) {
      if (received.revision !== undefined && previous.revision !== undefined && received.revision < previous.revision) return;
      if (received.digest !== undefined && received.digest === previous.digest) return;
    }
    let next: HeldNamespace;
    try {
      next = new HeldNamespace(received, this.settings.hash);
    } catch (err) {
      // The snapshot held keeps answering.
      this.logger.warn(`ensign provider (${this.settings.namespace}): snapshot refused: ${(err as Error).message}`);
      return;
    }
    this.held = next;
    this.alarm.follow(next.timeline);
    if (previous === undefined) {
      if (this.settleFirst !== undefined) {
        this.lifecycle.holds(false);
        this.settleFirst({ kind: 'held' });
      } else if (this.feed !== undefined) {
        // A first snapshot after `initialize` gave up says READY itself.
        this.lifecycle.holds(true);
      }
      return;
    }
    this.changed(next.changedSince(previous));
  }

  private changed(flagsChanged: string[]): void {
    if (flagsChanged.length > 0) this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged });
  }

  private fatal(reason: string): void {
    this.lifecycle.fatal();
    this.alarm.stop();
    if (this.settleFirst !== undefined) {
      this.settleFirst({ kind: 'fatal', reason });
      return;
    }
    this.events.emit(ProviderEvents.Error, { message: reason, errorCode: ErrorCode.PROVIDER_FATAL });
  }
}
