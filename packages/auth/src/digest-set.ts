/**
 * The set of live client-token digests an evaluator checks bearer tokens against, without I/O.
 * The control plane loads it from the store and publishes it; evaluators hold it in memory.
 */
import type { AuthMethod } from './authentication.js';
import type { LiveDigest } from './authentication-store.js';
import { LRUCache } from 'lru-cache';
import type { Caller } from './caller.js';
import { digestOf } from './client-token.js';

/**
 * The digests of recently presented tokens. A token's digest never changes, so remembering it is
 * always right, and the hot path hashes each token once instead of on every request.
 */
const presented = new LRUCache<string, string>({ max: 10_000 });

function presentedDigestOf(token: string): string {
  let digest = presented.get(token);
  if (digest === undefined) {
    digest = digestOf(token);
    presented.set(token, digest);
  }
  return digest;
}

/** What an evaluator needs to know of one live authentication. */
export interface DigestEntry {
  method: AuthMethod;
  /** The namespace a scoped token is tied to. */
  namespace?: string;
  /** Epoch milliseconds; absent when it never expires. Checked on every request. */
  expiresAtMs?: number;
}

/** Client-token digest → what it authenticates. */
export type DigestSet = ReadonlyMap<string, DigestEntry>;

export const EMPTY_DIGEST_SET: DigestSet = new Map();

const millisOf = (at: string | undefined): number | undefined => {
  if (at === undefined) return undefined;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? undefined : ms;
};

/** Builds a set from the store's rows. */
export function digestSetOf(rows: Iterable<LiveDigest>): DigestSet {
  const set = new Map<string, DigestEntry>();
  for (const row of rows) {
    const entry: DigestEntry = { method: row.method };
    const namespace = row.namespace?.trim();
    if (namespace !== undefined && namespace !== '') entry.namespace = namespace;
    const expiresAtMs = millisOf(row.expiresAt);
    if (expiresAtMs !== undefined) entry.expiresAtMs = expiresAtMs;
    set.set(row.digest, entry);
  }
  return set;
}

/**
 * The caller a client token stands for according to `set`, or undefined when the token is
 * unknown or expired at `nowMs` (an expired token is refused at once, before any cleanup runs).
 */
export function callerFromDigests(set: DigestSet, token: string, via: 'bearer' | 'cookie', nowMs: number): Caller | undefined {
  const entry = set.get(presentedDigestOf(token));
  if (entry === undefined) return undefined;
  // COMPAT(flipt): expired means strictly before now.
  if (entry.expiresAtMs !== undefined && entry.expiresAtMs < nowMs) return undefined;
  const caller: Caller = { method: entry.method, via, clientToken: token };
  if (entry.namespace !== undefined) caller.namespace = entry.namespace;
  return caller;
}
