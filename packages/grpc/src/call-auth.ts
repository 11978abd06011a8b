/**
 * Who makes a gRPC call, by the access policy of the HTTP transports: the credential is the
 * `authorization` metadata (`Bearer <client token>`, a bearer value shaped as a JWT tried as one, or
 * `JWT <jwt>`), resolved by the surface's resolver. gRPC carries no cookies, so there is no browser
 * session (and no CSRF token) here.
 */
import { type AccessPolicy, type Caller, type Credential, extractCredential } from '@ensign/auth';
import type { GrpcSurface } from './grpc-binding.js';

/** Resolves a credential to its caller; undefined for none, a 401 AppError when not valid (`Authenticator` does this). */
export interface CredentialResolver {
  authenticate(credential: Credential): Promise<Caller | undefined>;
}

export interface CallAuthOptions {
  /** `authentication.required` and `exclude.*`: which surfaces need a credential, and where a scoped token may go. */
  policy: AccessPolicy;
  /** Resolves management and authentication-API credentials (the control plane: the store is the authority). */
  authenticator: CredentialResolver;
  /**
   * Resolves evaluation and OFREP credentials, as the evaluation routes do (against the live digest
   * set, no database on the way); `authenticator` when not set.
   */
  evaluationAuthenticator?: CredentialResolver;
}

/** The credential of a call's `authorization` metadata; the prefixes are exact, as over HTTP. */
export const credentialOf = (authorization: string | undefined): Credential =>
  extractCredential(authorization === undefined ? {} : { authorization });

/** Decides, per call, who is calling; rejects with the same 401 as the HTTP routes. */
export class CallAuth {
  constructor(private readonly options: CallAuthOptions) {}

  /** The policy calls are judged by (the server also holds scoped callers to their namespace with it). */
  get policy(): AccessPolicy {
    return this.options.policy;
  }

  /** The caller of a call on `surface` presenting `authorization`; undefined when none is needed and none was resolved. */
  async callerOf(surface: GrpcSurface, authorization: string | undefined): Promise<Caller | undefined> {
    const resolver = surface === 'evaluation' || surface === 'ofrep' ? (this.options.evaluationAuthenticator ?? this.options.authenticator) : this.options.authenticator;
    return this.options.policy.callerOf(surface, () => resolver.authenticate(credentialOf(authorization)));
  }
}
