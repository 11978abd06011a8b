/**
 * Flipt's custom Rego builtin `flipt.is_auth_method(input, name)` (internal/server/authz/engine/ext),
 * for policies compiled to WebAssembly: a stock OPA lacks it, so the module imports it and the host
 * answers.
 */

/** Method names a policy may ask about → Flipt's numeric `authentication.method`. */
export const AUTH_METHOD_NUMBERS: Readonly<Record<string, number>> = Object.freeze({
  token: 1,
  oidc: 2,
  kubernetes: 3,
  k8s: 3,
  github: 4,
  jwt: 5,
});

/**
 * Whether the input's authentication used the named method. An unknown name or an input without
 * `authentication` is an evaluation error, as in Flipt (the decision fails and the caller denies).
 */
export function isAuthMethod(input: unknown, name: unknown): boolean {
  if (typeof name !== 'string' || !Object.hasOwn(AUTH_METHOD_NUMBERS, name)) throw new Error(`unsupported auth method ${String(name)}`);
  const authentication = typeof input === 'object' && input !== null ? (input as { authentication?: unknown }).authentication : undefined;
  if (typeof authentication !== 'object' || authentication === null) throw new Error('no authentication found');
  return (authentication as { method?: unknown }).method === AUTH_METHOD_NUMBERS[name];
}

/** The custom builtins argument of opa-wasm's `loadPolicy`, keyed by the name the module imports. */
export const FLIPT_BUILTINS: Readonly<Record<string, (...args: unknown[]) => unknown>> = Object.freeze({
  'flipt.is_auth_method': (input: unknown, name: unknown) => isAuthMethod(input, name),
});
