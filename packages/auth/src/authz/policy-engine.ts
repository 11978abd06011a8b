/**
 * What decides a management call: Flipt's two queries over its input document. Engines: the native
 * role policy (no Rego), an Open Policy Agent reached over its decision API, and a Rego policy
 * compiled to WebAssembly.
 */
import type { AuthorizationInput } from '@ensign/core';

export interface PolicyEngine {
  /** `data.flipt.authz.v1.allow`. Rejects (an AppError, Unavailable) when the engine cannot answer: the caller denies. */
  allow(input: AuthorizationInput): boolean | Promise<boolean>;
  /**
   * `data.flipt.authz.v1.viewable_namespaces`, for listing namespaces: the namespaces the caller
   * may see, or undefined when the policy does not define it (every namespace is listed).
   */
  viewableNamespaces(input: AuthorizationInput): readonly string[] | undefined | Promise<readonly string[] | undefined>;
}
