/** What a page configures the provider with, and the defaults it runs with. */
import type { HashMode, SnapshotDocument } from '@ensign/engine';

/** The `EventSource` constructor the provider opens its change feed with. */
export type EventSourceConstructor = new (url: string, init?: EventSourceInit) => EventSource;

export interface EnsignWebProviderOptions {
  /**
   * Where Ensign answers (`https://flags.example.com`, or a path such as `/flags` behind the page's
   * own origin). Left out: no connection at all, the provider answers from `bootstrap` only.
   */
  url?: string;
  /** The namespace evaluated; `default` when left out. */
  namespace?: string;
  /**
   * A client token, sent as `Authorization: Bearer`. `EventSource` cannot send headers, so with a
   * token the change feed is read with `fetch` instead.
   */
  token?: string;
  /**
   * Bucketing hash, as the server's `evaluation.hash` (`murmur3` by default). A server that names
   * its hash in the snapshot it serves overrides this.
   */
  hash?: HashMode;
  /**
   * A snapshot document (or its JSON text) to answer from before Ensign is reached, or without it
   * when `url` is left out; `initialize` then settles at once.
   */
  bootstrap?: SnapshotDocument | string;
  /** How long `initialize` waits for the first snapshot before it fails (the provider keeps trying); 5 s. */
  initTimeoutMs?: number;
  /** How long the feed may be lost before the provider says STALE; 5 s. */
  staleAfterMs?: number;
  /** How long the feed may be lost before the provider says ERROR; 30 s. */
  errorAfterMs?: number;
  /** Reconnection: the first delay (also the shortest between two attempts) and the longest; 1 s and 30 s. */
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  /** For tests and environments without them: the `fetch` and `EventSource` used. */
  fetch?: typeof fetch;
  EventSource?: EventSourceConstructor;
}

export interface ProviderSettings {
  url: string | undefined;
  namespace: string;
  token: string | undefined;
  hash: HashMode;
  bootstrap: SnapshotDocument | undefined;
  initTimeoutMs: number;
  staleAfterMs: number;
  errorAfterMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
  fetch: typeof fetch;
  EventSource: EventSourceConstructor | undefined;
}

export const DEFAULT_NAMESPACE = 'default';

/** The options with every default filled in; a bootstrap given as text is parsed here, so a bad one fails the constructor. */
export function settingsOf(options: EnsignWebProviderOptions): ProviderSettings {
  const { bootstrap } = options;
  return {
    url: options.url?.replace(/\/+$/, ''),
    namespace: options.namespace || DEFAULT_NAMESPACE,
    token: options.token || undefined,
    hash: options.hash ?? 'murmur3',
    bootstrap: typeof bootstrap === 'string' ? (JSON.parse(bootstrap) as SnapshotDocument) : bootstrap,
    initTimeoutMs: options.initTimeoutMs ?? 5_000,
    staleAfterMs: options.staleAfterMs ?? 5_000,
    errorAfterMs: options.errorAfterMs ?? 30_000,
    initialDelayMs: options.retry?.initialDelayMs ?? 1_000,
    maxDelayMs: options.retry?.maxDelayMs ?? 30_000,
    // Bound to the global object: a bare `fetch` reference called as a method throws "Illegal invocation".
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    EventSource: options.EventSource ?? (globalThis as { EventSource?: EventSourceConstructor }).EventSource,
  };
}
