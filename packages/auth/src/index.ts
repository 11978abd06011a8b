export { AUTH_METHODS, META } from './authentication.js';
export type { AuthMethod, Authentication, Identity } from './authentication.js';
export type { AuthenticationPage, AuthenticationStore, LiveDigest, StoredAuthentication } from './authentication-store.js';
export { createJwtVerifier, DEFAULT_JWT_CLOCK_TOLERANCE_SEC, JWT_ALGORITHMS } from './methods/jwt/jwt-verifier.js';
export type { JwtVerifier, JwtVerifierConfig } from './methods/jwt/jwt-verifier.js';
export { createServiceAccountVerifier } from './methods/kubernetes/service-account-verifier.js';
export type { ServiceAccountVerifier, ServiceAccountVerifierConfig } from './methods/kubernetes/service-account-verifier.js';
export { serviceAccountTokenOf } from './methods/kubernetes/service-account-request.js';
export { K8S_METADATA_PREFIXES } from './methods/kubernetes/service-account-metadata.js';
export { digestOf, generateClientToken } from './client-token.js';
export { extractCredential, mayBeBearerJwt, FLIPT_SESSION_COOKIE, readCookie, SESSION_COOKIE, SESSION_COOKIES, sessionTokenOf } from './credentials.js';
export type { Credential } from './credentials.js';
export { scopedNamespaceOf } from './caller.js';
export type { Caller, CredentialSource } from './caller.js';
export { callerFromDigests, digestSetOf, EMPTY_DIGEST_SET } from './digest-set.js';
export type { DigestEntry, DigestSet } from './digest-set.js';
export { Authenticator, jwtCaller } from './authenticator.js';
export { VerifiedJwts } from './verified-jwts.js';
export type { VerifiedJwtsOptions } from './verified-jwts.js';
export type { AuthenticatorOptions } from './authenticator.js';
export { AccessPolicy } from './access-policy.js';
export type { AccessOptions, ExcludableSurface, Resolved, Surface } from './access-policy.js';
export { assertScope, inNamespaces, scopeAllows, UNDETERMINED, UNSCOPED } from './namespace-scope.js';
export type { ScopeTarget } from './namespace-scope.js';
export {
  assertCsrf,
  clearedSessionCookies,
  clearedStateCookie,
  cookieDomain,
  CSRF_HEADER,
  csrfMatches,
  csrfTokenFor,
  isStateChanging,
  sessionCookie,
  sessionCsrfToken,
  STATE_COOKIE,
  stateCookie,
} from './session.js';
export type { SessionSettings } from './session.js';
export { browserSessionIdentity, SESSION_PARENT, sessionParentOf } from './browser-session.js';
export { issueAuthentication, issueToken, tokenIdentity } from './issue.js';
export type { IssuedAuthentication, TokenRequest } from './issue.js';
export { BOOTSTRAP_TOKEN_NAME, bootstrapTokens } from './bootstrap.js';
export type { BootstrapLogger, BootstrapOptions } from './bootstrap.js';
export { TokenCleanup } from './token-cleanup.js';
export type { CleanupLogger, TokenCleanupOptions } from './token-cleanup.js';
export { LiveDigests } from './live-digests.js';
export type { DigestLogger, LiveDigestSource, LiveDigestsOptions } from './live-digests.js';
export { clientStateOf } from './methods/login-flow.js';
export type { CallbackQuery, LoginFlowOptions, LoginMethod, PendingLogin } from './methods/login-flow.js';
export { createOidcMethods } from './methods/oidc/oidc-methods.js';
export { oidcCallbackPath, oidcCallbackUrl, validateOidcConfig } from './methods/oidc/oidc-config.js';
export type { OidcConfig, OidcProviderConfig } from './methods/oidc/oidc-config.js';
export { OIDC_META, oidcEmailAllowed } from './methods/oidc/oidc-metadata.js';
export { CODEHOST_META, createCodeHostMethod, GITHUB_CALLBACK_PATH } from './methods/codehost/codehost-login.js';
export type { CodeHostLoginOptions } from './methods/codehost/codehost-login.js';
export { DEFAULT_API_URL as CODEHOST_DEFAULT_API_URL, DEFAULT_SERVER_URL as CODEHOST_DEFAULT_SERVER_URL, validateCodeHostConfig } from './methods/codehost/codehost-config.js';
export type { CodeHostConfig } from './methods/codehost/codehost-config.js';
export { actorOf, currentActor, runAs } from './actor-context.js';
export { RolePolicy, ROLE_METADATA_KEY } from './authz/role-policy.js';
export type { RolePolicyOptions, RoleResolver } from './authz/role-policy.js';
export { parseRoleData, validateRoleData } from './authz/role-data.js';
export type { RoleData, RoleDefinition, RoleRule } from './authz/role-data.js';
export { PolicyFileError } from './authz/policy-file-error.js';
export { DEFAULT_OPA_TIMEOUT_MS, OpaDecisionApi } from './authz/opa-decision-api.js';
export type { OpaDecisionApiOptions } from './authz/opa-decision-api.js';
export { AUTH_METHOD_NUMBERS, FLIPT_BUILTINS, isAuthMethod } from './authz/flipt-builtins.js';
export { FLIPT_ALLOW_ENTRYPOINT, FLIPT_VIEWABLE_NAMESPACES_ENTRYPOINT, loadWasmPolicy, WasmPolicy } from './authz/opa-wasm.js';
export type { CompiledPolicy, WasmPolicyOptions } from './authz/opa-wasm.js';
export { readOpaBundle } from './authz/opa-bundle.js';
export type { OpaBundle } from './authz/opa-bundle.js';
export { engineFromFiles } from './authz/engine-from-files.js';
export type { FileContent, FileEngineKind } from './authz/engine-from-files.js';
export { DEFAULT_DATA_POLL_MS, DEFAULT_POLICY_POLL_MS, PolicyFiles } from './authz/policy-files.js';
export type { PolicyFileStatus, PolicyFilesLogger, PolicyFilesOptions, PolicyFilesStatus } from './authz/policy-files.js';
export { authenticationInput, ManagementAuthorization } from './management-authorization.js';
export type { Denial, ManagementAuthorizationOptions } from './management-authorization.js';
export type { PolicyEngine } from './authz/policy-engine.js';
export { roleMappingResolver } from './authz/role-mapping.js';
export type { RoleMapping } from './authz/role-mapping.js';
