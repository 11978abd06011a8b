/**
 * Who is calling the evaluator, without I/O on the hot path: a bearer token or session cookie is
 * checked synchronously against the digest set the control plane publishes; only a JWT
 * (`Authorization: JWT`, or a bearer value that is no client token but a JWT) is verified
 * asynchronously (local keys or a cached JWKS). Whether a caller is needed is the access policy's call.
 */
import type { IncomingMessage } from 'node:http';
import { assertCsrf, type Authentication, type Caller, callerFromDigests, CSRF_HEADER, type DigestSet, type ExcludableSurface, extractCredential, jwtCaller, mayBeBearerJwt, VerifiedJwts } from '@ensign/auth';
import { unauthenticated } from '@ensign/core';
import { headerValue } from './http-call.js';

/** How the evaluator authenticates requests. */
export interface EvaluatorAuthOptions {
  /** `authentication.required`; when false nothing is checked. */
  required: boolean;
  /** The live token digests (published by the control plane). */
  digests: () => DigestSet;
  /** Set when the JWT method is enabled. */
  jwt?: { verify(jwt: string): Promise<Authentication> };
  /** `authentication.exclude.*`: surfaces served without authentication. */
  exclude: Readonly<Record<ExcludableSurface, boolean>>;
  /** `authentication.session.csrf.key`: what a session cookie's CSRF token is derived with. */
  csrfKey?: string;
}

const CSRF_HEADER_NAME = CSRF_HEADER.toLowerCase();

export class RequestCredentials {
  /** A client sends the same JWT on every request: its signature is checked once, not each time. */
  private readonly jwts = new VerifiedJwts();

  constructor(
    private readonly options: EvaluatorAuthOptions,
    private readonly now: () => number,
  ) {}

  /** The caller presenting the request's credential: undefined for none, a promise only for JWTs; throws (or rejects) a 401 AppError for a bad one. */
  resolve(req: IncomingMessage): Caller | undefined | Promise<Caller> {
    const credential = extractCredential(req.headers);
    switch (credential.kind) {
      case 'none':
        return undefined;
      case 'malformed':
        throw unauthenticated();
      case 'jwt':
        return this.jwtCaller(credential.jwt);
      case 'token': {
        const caller = callerFromDigests(this.options.digests(), credential.token, credential.via, this.now());
        if (caller === undefined) {
          if (this.options.jwt !== undefined && mayBeBearerJwt(credential)) return this.jwtCaller(credential.token);
          throw unauthenticated();
        }
        assertCsrf(caller, req.method ?? 'GET', headerValue(req.headers, CSRF_HEADER_NAME), this.options.csrfKey ?? '');
        return caller;
      }
    }
  }

  /** The caller of a JWT: at once when it verified recently, else once its signature is checked. */
  private jwtCaller(jwt: string): Caller | Promise<Caller> {
    const now = this.now();
    const known = this.jwts.get(jwt, now);
    if (known !== undefined) return { method: known.method, via: 'jwt', authentication: known };
    return jwtCaller(this.options.jwt, jwt).then((caller) => {
      if (caller.authentication !== undefined) this.jwts.remember(jwt, caller.authentication, now);
      return caller;
    });
  }
}
