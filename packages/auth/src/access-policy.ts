/**
 * The one access policy of every transport (Koa routes, the evaluator's node:http routes, gRPC):
 * which surfaces need a credential (`authentication.required`, `exclude.*`), what a credential
 * that fails to resolve means, and which callers a namespace-scoped token may be.
 */
import { Code, isAppError, unauthenticated } from '@ensign/core';
import type { Caller } from './caller.js';
import { assertScope, type ScopeTarget, UNSCOPED } from './namespace-scope.js';

/**
 * Which part of the API a request belongs to. `management` (`/api/v1`, `flipt.Flipt`),
 * `evaluation` (`/evaluate/v1`, the client-side snapshot, `flipt.evaluation`), `ofrep`: each
 * guarded when authentication is required unless excluded. `auth`: the authentication API, guarded
 * when required and always read (its `self`). `public`: login methods, health, metrics: never.
 */
export type Surface = 'management' | 'evaluation' | 'ofrep' | 'auth' | 'public';

/** The surfaces `authentication.exclude.*` can open. */
export type ExcludableSurface = 'management' | 'evaluation' | 'ofrep';

export interface AccessOptions {
  /** `authentication.required`. */
  required: boolean;
  /** `authentication.exclude.*`: surfaces served without a credential when one is required. */
  exclude: Readonly<Record<ExcludableSurface, boolean>>;
}

/** What a transport resolves a request's credential to: a caller, none, or (for a JWT) later. */
export type Resolved = Caller | undefined | Promise<Caller | undefined>;

export class AccessPolicy {
  /** Nothing required: every request is served. */
  static readonly OPEN = new AccessPolicy({ required: false, exclude: { management: false, evaluation: false, ofrep: false } });

  constructor(readonly options: AccessOptions) {}

  /** Whether requests on `surface` must present a valid credential. */
  guards(surface: Surface): boolean {
    switch (surface) {
      case 'public':
        return false;
      case 'auth':
        return this.options.required;
      default:
        return this.options.required && !this.options.exclude[surface];
    }
  }

  /** Whether the credential of a request on `surface` is looked at: when guarded, and always on the authentication API. */
  readsCredential(surface: Surface): boolean {
    return surface === 'auth' || this.guards(surface);
  }

  /**
   * The caller a request on `surface` goes on as, from `resolve` (which turns its credential into a
   * caller, or throws a 401 AppError for a bad one); `resolve` is not called where the credential
   * is not read. Synchronous when `resolve` is. Unguarded, a refused credential is as good as none;
   * guarded, none is a 401. Any other failure of `resolve` (the store down) is thrown either way.
   * COMPAT(flipt): namespace-scoped tokens may not use the authentication API at all.
   */
  callerOf(surface: Surface, resolve: () => Resolved): Resolved {
    if (!this.readsCredential(surface)) return undefined;
    let resolved: Resolved;
    try {
      resolved = resolve();
    } catch (err) {
      return this.failed(surface, err);
    }
    if (resolved instanceof Promise) {
      return resolved.then(
        (caller) => this.admit(surface, caller),
        (err: unknown) => this.failed(surface, err),
      );
    }
    return this.admit(surface, resolved);
  }

  /**
   * Throws 401 when a namespace-scoped caller makes a request on `surface` outside its namespace.
   * `target` is what the request touches (absent: nothing a scoped token may touch); OFREP and the
   * authentication API are never within a namespace.
   */
  assertScope(surface: Surface, caller: Caller | undefined, target?: ScopeTarget): void {
    if (caller?.namespace === undefined) return;
    assertScope(caller, target === undefined || surface === 'ofrep' || surface === 'auth' ? UNSCOPED : target);
  }

  private admit(surface: Surface, caller: Caller | undefined): Caller | undefined {
    if (caller === undefined && this.guards(surface)) throw unauthenticated();
    if (surface === 'auth') assertScope(caller, UNSCOPED);
    return caller;
  }

  /** A refused credential where none is needed counts as none; every other failure stands. */
  private failed(surface: Surface, err: unknown): undefined {
    if (this.guards(surface) || !isAppError(err) || err.code !== Code.Unauthenticated) throw err;
    return undefined;
  }
}
