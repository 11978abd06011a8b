/** The bootstrap snapshot: a JSON file (a saved client-side snapshot or stream message) or a document. */
import { readFile } from 'node:fs/promises';
import type { SnapshotDocument } from '@ensign/engine';
import { type ReceivedSnapshot, receivedSnapshot } from './received-snapshot.js';

export async function loadBootstrap(bootstrap: string | SnapshotDocument): Promise<ReceivedSnapshot> {
  if (typeof bootstrap !== 'string') return receivedSnapshot(bootstrap);
  const text = await readFile(bootstrap, 'utf8');
  try {
    return receivedSnapshot(JSON.parse(text));
  } catch (err) {
    throw new Error(`bootstrap ${bootstrap}: ${(err as Error).message}`);
  }
}
