/**
 * An OpenFeature provider for the browser (static context) that evaluates one Ensign namespace in
 * the page: it holds the namespace's snapshot, kept current through the server's change stream,
 * compiled with the evaluators' own engine, and the answers of every flag for the page's context.
 * A change that moves some of those answers is announced with PROVIDER_CONFIGURATION_CHANGED
 * naming them; one that moves none is not announced at all.
 */
import { compileSnapshot, type CompiledSnapshot, type SnapshotDocument } from '@ensign/engine';
import {
  ErrorCode,
  type EvaluationContext,
  GeneralError,
  type JsonValue,
  OpenFeatureEventEmitter,
  type Provider,
  ProviderEvents,
  ProviderFatalError,
  type ResolutionDetails,
} from '@openfeature/web-sdk';
import { BoundaryTimer } from './boundary-timer.js';
import { type Answers, answersFor, changedFlags } from './context-answers.js';
import { entityOf, type EvaluationEntity } from './evaluation-entity.js';
import { openEventSourceFeed } from './event-source-feed.js';
import { openFetchFeed } from './fetch-event-feed.js';
import { type EnsignWebProviderOptions, type ProviderSettings, settingsOf } from './provider-options.js';
import { ReconnectBackoff } from './reconnect-backoff.js';
import { type AnswerSource, booleanDetails, failed, numberDetails, objectDetails, stringDetails } from './resolution-details.js';
import type { ServedDocument } from './snapshot-fetch.js';
import { type OpenFeed, SnapshotSync } from './snapshot-sync.js';
import { type HealthEvent, SourceHealth } from './source-health.js';

interface HeldSnapshot {
  compiled: CompiledSnapshot;
  document: SnapshotDocument;
  source: AnswerSource;
}

/** `initialize` waiting for its first snapshot. */
interface FirstSnapshotWait {
  arrived(): void;
  refused(err: Error): void;
}

const HEALTH_EVENTS: Readonly<Record<HealthEvent, ProviderEvents.Ready | ProviderEvents.Stale | ProviderEvents.Error>> = {
  ready: ProviderEvents.Ready,
  stale: ProviderEvents.Stale,
  error: ProviderEvents.Error,
};

export class EnsignWebProvider implements Provider {
  readonly metadata = { name: 'ensign-web' } as const;
  readonly runsOn = 'client' as const;
  /** Its answers are those of one context: the SDK binds it to one domain at most. */
  readonly domainScoped = true;
  readonly events = new OpenFeatureEventEmitter();

  private readonly settings: ProviderSettings;
  private readonly health: SourceHealth;
  private readonly boundary = new BoundaryTimer();
  private entity: EvaluationEntity = entityOf({});
  private held: HeldSnapshot | undefined;
  private answers: Answers = new Map();
  private sync: SnapshotSync | undefined;
  private waiting: FirstSnapshotWait | undefined;

  constructor(options: EnsignWebProviderOptions = {}) {
    this.settings = settingsOf(options);
    this.health = new SourceHealth(this.settings.staleAfterMs, this.settings.errorAfterMs, (event, message) => this.events.emit(HEALTH_EVENTS[event], { message }));
  }

  async initialize(context: EvaluationContext = {}): Promise<void> {
    const { bootstrap, url } = this.settings;
    this.entity = entityOf(context);
    if (bootstrap !== undefined) this.hold(bootstrap, undefined);
    if (url === undefined) {
      if (bootstrap === undefined) throw new GeneralError('EnsignWebProvider needs a url, a bootstrap snapshot, or both');
      this.health.initialized();
      return;
    }
    const first = bootstrap === undefined ? this.firstSnapshot() : undefined;
    this.sync = this.syncFrom(url);
    this.sync.start();
    if (first === undefined) this.health.initialized();
    else await first;
  }

  onContextChange(_oldContext: EvaluationContext, newContext: EvaluationContext): void {
    this.entity = entityOf(newContext);
    // The SDK announces the new context itself; answers for it are ready before it does.
    if (this.held !== undefined) this.reevaluate(false);
  }

  async onClose(): Promise<void> {
    this.sync?.close();
    this.health.close();
    this.boundary.cancel();
    this.waiting?.refused(new GeneralError('the provider was closed'));
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean): ResolutionDetails<boolean> {
    if (this.held === undefined) return notReady(defaultValue);
    return booleanDetails(this.answers.get(flagKey), defaultValue, this.held.source, flagKey);
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string): ResolutionDetails<string> {
    if (this.held === undefined) return notReady(defaultValue);
    return stringDetails(this.answers.get(flagKey), defaultValue, this.held.source, flagKey);
  }

  resolveNumberEvaluation(_flagKey: string, defaultValue: number): ResolutionDetails<number> {
    return numberDetails(defaultValue);
  }

  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T): ResolutionDetails<T> {
    if (this.held === undefined) return notReady(defaultValue);
    return objectDetails(this.answers.get(flagKey), defaultValue, this.held.source, flagKey);
  }

  /** Resolves once a snapshot is held; fails after `initTimeoutMs` (the sync goes on) or at once on a refusal. */
  private firstSnapshot(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        this.health.initializationFailed();
        reject(new GeneralError(`no snapshot from Ensign within ${this.settings.initTimeoutMs} ms; still trying`));
      }, this.settings.initTimeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        this.waiting = undefined;
      };
      this.waiting = {
        arrived: () => {
          settle();
          this.health.initialized();
          resolve();
        },
        refused: (err) => {
          settle();
          reject(err);
        },
      };
    });
  }

  private syncFrom(base: string): SnapshotSync {
    const { namespace, token, fetch, EventSource, initialDelayMs, maxDelayMs } = this.settings;
    const openFeed: OpenFeed =
      token === undefined && EventSource !== undefined
        ? (streamUrl, handlers) => openEventSourceFeed(EventSource, streamUrl, handlers)
        : (streamUrl, handlers) => openFetchFeed(fetch, streamUrl, token, handlers);
    return new SnapshotSync({ base, namespace, token, fetch }, openFeed, new ReconnectBackoff(initialDelayMs, maxDelayMs), maxDelayMs, {
      snapshot: (document, etag) => {
        const first = this.held === undefined;
        this.hold(document, etag);
        // A first snapshot after `initialize` gave up is what it was waiting for.
        if (this.waiting !== undefined) this.waiting.arrived();
        else if (first) this.health.current();
      },
      current: () => this.health.current(),
      lost: (message) => this.health.lost(message),
      refused: (status, message) => this.refused(status, message),
    });
  }

  /** Compiles and holds `document` (throwing when it does not compile), and answers for it. */
  private hold(document: ServedDocument, etag: string | undefined): void {
    // The server names the hash it buckets with; a document that does not takes the configured one.
    const compiled = compileSnapshot(document, { hash: document.hash ?? this.settings.hash });
    const announce = this.held !== undefined;
    this.held = { compiled, document, source: { namespace: this.settings.namespace, version: etag } };
    this.reevaluate(announce);
  }

  private reevaluate(announce: boolean): void {
    const held = this.held;
    if (held === undefined) return;
    const now = Date.now();
    const answers = answersFor(held.compiled, held.document, this.entity, now);
    const changed = changedFlags(this.answers, answers);
    this.answers = answers;
    this.boundary.schedule(held.document, now, () => this.reevaluate(true));
    if (announce && changed.length > 0) this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: changed });
  }

  private refused(status: number, message: string): void {
    this.health.fatal();
    this.boundary.cancel();
    const text = `Ensign refused the provider's credential (HTTP ${status}): ${message}`;
    if (this.waiting !== undefined) this.waiting.refused(new ProviderFatalError(text));
    else this.events.emit(ProviderEvents.Error, { message: text, errorCode: ErrorCode.PROVIDER_FATAL });
  }
}

const notReady = <T>(defaultValue: T): ResolutionDetails<T> => failed(defaultValue, ErrorCode.PROVIDER_NOT_READY, 'no snapshot from Ensign yet');
