import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { openSnapshotBus } from '../../src/index.js';
import type { SnapshotBus, SnapshotBusOptions } from '../../src/index.js';

export const NATS_URL = 'nats://127.0.0.1:4222';

/** Bucket and object-store names of one test file, so runs never share state. */
export interface BusNames {
  bucket: string;
  objectStore: string;
}

export function freshNames(): BusNames {
  const id = randomBytes(6).toString('hex');
  return { bucket: `ensign_t_${id}`, objectStore: `ensign_t_docs_${id}` };
}

export function openTestBus(names: BusNames, options: Partial<SnapshotBusOptions> = {}): SnapshotBus {
  return openSnapshotBus({ url: NATS_URL, ...names, ...options });
}

/** Deletes the streams behind a test file's bucket and object store. */
export async function destroyNames(names: BusNames): Promise<void> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const jsm = await nc.jetstreamManager();
    for (const stream of [`KV_${names.bucket}`, `OBJ_${names.objectStore}`]) {
      await jsm.streams.delete(stream).catch(() => false);
    }
  } finally {
    await nc.close();
  }
}

/** A logger that keeps what it was told, for asserting on failures. */
export function recordingLogger(): { lines: Array<{ level: string; msg: string; obj: object }>; info: Log; warn: Log; error: Log } {
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  const at = (level: string): Log => (obj, msg) => lines.push({ level, msg, obj });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

type Log = (obj: object, msg: string) => void;
