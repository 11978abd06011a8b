/**
 * The Authentication record of the wire (`/auth/v1`) and its metadata keys, which live in core so
 * the store keeps the same records, and what a login method establishes about a caller. Where the
 * service spec names its own metadata spelling (`io.svc.auth.k8s.*`), both are written.
 */
import type { AuthMethod } from '@ensign/core';

export { AUTH_META as META, AUTH_METHODS } from '@ensign/core';
export type { Authentication, AuthMethod } from '@ensign/core';

/** What a login method established about a caller, before it becomes a stored authentication. */
export interface Identity {
  method: AuthMethod;
  metadata: Record<string, string>;
  /** When the authentication must end; absent = never (only static tokens may omit it). */
  expiresAt?: Date;
}
