/**
 * `@ensign/grpc/management`: the services over the control plane (`flipt.Flipt`, with its legacy
 * Evaluate methods, Ensign's `ensign.flags.v1.FlagTimingService` and
 * `ensign.changes.v1.ChangeRequestService`, and the authentication services); only `ensign server`
 * loads them.
 */
export { authBindings } from './services/auth.service.js';
export type { AuthBindingDeps } from './services/auth.service.js';
export { fliptBinding } from './services/flipt.service.js';
export type { FliptBindingDeps } from './services/flipt.service.js';
export { flagTimingBinding } from './services/flag-timing.service.js';
export type { FlagTimingBindingDeps } from './services/flag-timing.service.js';
export { changeRequestBinding } from './services/change-request.service.js';
export type { ChangeRequestBindingDeps } from './services/change-request.service.js';
