/** What an `EnsignProvider` is told, and the defaults of what it is not. */
import type { HashMode, SnapshotDocument } from '@ensign/engine';
import type { Logger } from '@openfeature/server-sdk';

export interface EnsignProviderOptions {
  /** Ensign's address (`ensign server`, or the evaluators behind the same address). Leave it out to answer from `bootstrap` alone. */
  url?: string;
  /** The namespace this provider evaluates; `default` when not set. One provider per namespace (bind each to an OpenFeature domain). */
  namespace?: string;
  /** A client token or JWT, sent as `Authorization: Bearer …`. */
  token?: string;
  /**
   * The bucketing hash when the snapshot does not name one (a bootstrap file, an older server): it
   * must be the server's `evaluation.hash`. Ensign's own format names it, and then that one is used.
   * `murmur3` when not set.
   */
  hash?: HashMode;
  /**
   * A snapshot to answer from from the start, until Ensign sends one (and for good without `url`):
   * the path of a JSON file, or the document. The client-side snapshot in Ensign's format
   * (`GET /internal/v1/evaluation/snapshot/namespace/{ns}?format=ensign`) is one.
   */
  bootstrap?: string | SnapshotDocument;
  /** How long `initialize` waits for the first snapshot; 5 s. */
  initTimeoutMs?: number;
  /** How long without Ensign before the provider is STALE; 5 s. */
  staleAfterMs?: number;
  /** How long without Ensign before it is ERROR; 30 s. */
  errorAfterMs?: number;
  /** How often the snapshot is polled (beside the stream, or instead of it where there is none); 30 s. */
  pollIntervalMs?: number;
  /** Reconnection delays: the first step, the cap and the floor; 1 s, 30 s and 500 ms. */
  reconnect?: { initialMs?: number; maxMs?: number; minMs?: number };
  /** How long a request (or a stream's answer head) may take; 10 s. */
  requestTimeoutMs?: number;
  /** Evaluation counts sent to Ensign's usage route; on, every 10 s, unless `false`. */
  counts?: false | { flushIntervalMs?: number; maxPendingBatches?: number };
  /** Where warnings go; OpenFeature's default logger (the console) when not set. */
  logger?: Logger;
}

/** Every setting, defaults applied. */
export interface ProviderSettings {
  url: string | undefined;
  namespace: string;
  token: string | undefined;
  hash: HashMode;
  bootstrap: string | SnapshotDocument | undefined;
  initTimeoutMs: number;
  staleAfterMs: number;
  errorAfterMs: number;
  pollIntervalMs: number;
  reconnect: { initialMs: number; maxMs: number; minMs: number };
  requestTimeoutMs: number;
  counts: { flushIntervalMs: number; maxPendingBatches: number } | undefined;
}

export const STABLE_STREAM_MS = 10_000;
export const STREAM_RETRY_MS = 300_000;
export const MAX_COUNTS_PER_BATCH = 1000;

export function providerSettings(options: EnsignProviderOptions): ProviderSettings {
  if (options.url === undefined && options.bootstrap === undefined) throw new TypeError('EnsignProvider needs a url, a bootstrap snapshot, or both');
  if (options.url !== undefined) new URL(options.url);
  const counts = options.counts === false ? undefined : { flushIntervalMs: 10_000, maxPendingBatches: 5, ...options.counts };
  return {
    url: options.url,
    namespace: options.namespace || 'default',
    token: options.token,
    hash: options.hash ?? 'murmur3',
    bootstrap: options.bootstrap,
    initTimeoutMs: options.initTimeoutMs ?? 5_000,
    staleAfterMs: options.staleAfterMs ?? 5_000,
    errorAfterMs: options.errorAfterMs ?? 30_000,
    pollIntervalMs: options.pollIntervalMs ?? 30_000,
    reconnect: { initialMs: 1_000, maxMs: 30_000, minMs: 500, ...options.reconnect },
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    counts: options.url === undefined ? undefined : counts,
  };
}
