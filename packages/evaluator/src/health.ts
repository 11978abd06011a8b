/** Readiness of an evaluator: it may answer only once its snapshots are loaded. */
import { unavailable } from '@ensign/core';
import type { SnapshotSource } from './snapshot-source.js';

/** Something a health endpoint can ping (the control plane's `/health` takes the same shape). */
export interface ReadinessCheck {
  /** Resolves when the source is ready; rejects with 503 Unavailable otherwise. */
  ping(): Promise<void>;
}

/** A health check that fails until `source` has loaded every namespace. */
export function createHealthCheck(source: SnapshotSource): ReadinessCheck {
  return {
    ping: () => (source.ready() ? Promise.resolve() : Promise.reject(unavailable('snapshots are not loaded yet'))),
  };
}
