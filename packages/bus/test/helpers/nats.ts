import { NATS_URL, type TestBucket, testBucket } from '@ensign/testkit/nats-bucket';
import { openSnapshotBus } from '../../src/index.js';
import type { BucketEntry, SnapshotBus, SnapshotBusOptions } from '../../src/index.js';

export { NATS_URL };

/** Bucket and object-store names of one test file, so runs never share state. */
export type BusNames = TestBucket;

export const freshNames = (): BusNames => testBucket();

export function openTestBus(names: BusNames, options: Partial<SnapshotBusOptions> = {}): SnapshotBus {
  return openSnapshotBus({ url: NATS_URL, bucket: names.bucket, objectStore: names.objectStore, ...options });
}

/**
 * Resolves once every bus has connected and opened its bucket. A test awaits it before building a
 * large document: nats.js leaks the socket of a connection attempt that outlives its 2 s timeout,
 * which a long synchronous build can cause, and the leaked socket keeps the test process alive.
 */
export async function connected(...buses: SnapshotBus[]): Promise<void> {
  await Promise.all(buses.map((bus) => bus.revisions()));
}

/** Whether an entry was read from the bucket (a delta heard on the live subject was not; the bucket's copy follows). */
export const fromBucket = (entry: BucketEntry): boolean => !(entry.kind === 'delta' && entry.live === true);

/** Deletes the streams behind a test file's bucket and object store. */
export const destroyNames = (names: BusNames): Promise<void> => names.drop();

/** A logger that keeps what it was told, for asserting on failures. */
export function recordingLogger(): { lines: Array<{ level: string; msg: string; obj: object }>; info: Log; warn: Log; error: Log } {
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  const at = (level: string): Log => (obj, msg) => lines.push({ level, msg, obj });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

type Log = (obj: object, msg: string) => void;
