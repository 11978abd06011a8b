/** Limits every transport applies alike. */

/** Default largest request body, in bytes (1 MiB), on every HTTP route and gRPC message. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** How long one readiness check may take, over `/health` and gRPC health alike. */
export const HEALTH_TIMEOUT_MS = 2000;
