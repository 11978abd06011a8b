export type { BusLogger } from './bus-logger.js';
export { AUTH_DIGESTS_KEY, NAMESPACE_KEYS, namespaceKeyToKvKey, namespaceOfKey } from './keys.js';
export { DEFAULT_MAX_INLINE_BYTES, EnvelopeError, decodeEnvelope, encodeEnvelope, parseEnvelope } from './envelope.js';
export type { EncodedEnvelope, ObjectFetcher, SnapshotEnvelope } from './envelope.js';
export type { BusStatus } from './nats-connection.js';
export { openSnapshotBus } from './snapshot-bus.js';
export type { SnapshotBus, SnapshotBusOptions, SnapshotChange, SnapshotWatch } from './snapshot-bus.js';
export { KvSnapshotSink } from './kv-snapshot-sink.js';
