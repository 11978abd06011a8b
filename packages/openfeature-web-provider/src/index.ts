/**
 * @ensign/openfeature-web-provider: an OpenFeature provider for `@openfeature/web-sdk` that
 * evaluates an Ensign namespace in the browser, for the page's one context, from a snapshot kept
 * current by the server's change stream.
 */
export { EnsignWebProvider } from './ensign-web-provider.js';
export type { EnsignWebProviderOptions, EventSourceConstructor } from './provider-options.js';
export { PREREQUISITE_FAILED } from './resolution-details.js';
export type { HashMode, SnapshotDocument } from '@ensign/engine';
