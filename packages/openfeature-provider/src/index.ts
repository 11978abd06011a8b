/**
 * @ensign/openfeature-provider: an OpenFeature provider for Node that evaluates Ensign's (Flipt
 * v1's) flags in the caller's process, fed by Ensign's snapshot stream.
 */
export { EnsignProvider } from './ensign-provider.js';
export type { EnsignProviderOptions } from './provider-options.js';
export type { ProviderState } from './lifecycle/provider-lifecycle.js';
export type { FlagAnswers } from './resolve/flag-answers.js';
export { PREREQUISITE_FAILED } from './resolve/reasons.js';
