/**
 * JWTs verified recently, so a client that sends the same token on every request has its
 * signature checked once rather than each time. A token is remembered until it expires, and at
 * most `maxAgeMs` (a minute by default): a key taken out of the JWKS stops accepting its tokens
 * within that bound. Only tokens that verified are remembered; a bad one is checked every time.
 */
import { LRUCache } from 'lru-cache';
import type { Authentication } from './authentication.js';

export interface VerifiedJwtsOptions {
  /** Most tokens remembered; 10,000 when not set. */
  max?: number;
  /** Longest a verification is trusted, in milliseconds; 60,000 when not set. */
  maxAgeMs?: number;
}

interface Verified {
  authentication: Authentication;
  /** Epoch milliseconds after which the verification is not used. */
  until: number;
}

export class VerifiedJwts {
  private readonly verified: LRUCache<string, Verified>;
  private readonly maxAgeMs: number;

  constructor(options: VerifiedJwtsOptions = {}) {
    this.verified = new LRUCache({ max: options.max ?? 10_000 });
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
  }

  /** The authentication `jwt` verified to, while its verification is still good at `nowMs`. */
  get(jwt: string, nowMs: number): Authentication | undefined {
    const entry = this.verified.get(jwt);
    if (entry === undefined) return undefined;
    if (entry.until <= nowMs) {
      this.verified.delete(jwt);
      return undefined;
    }
    return entry.authentication;
  }

  /** Remembers a verification made at `nowMs`, until the token expires or `maxAgeMs` has passed. */
  remember(jwt: string, authentication: Authentication, nowMs: number): void {
    const expires = authentication.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(authentication.expiresAt);
    const until = Math.min(nowMs + this.maxAgeMs, Number.isNaN(expires) ? nowMs : expires);
    if (until > nowMs) this.verified.set(jwt, { authentication, until });
  }
}
