/** `/metrics` of declarative storage: how each look at the files ended, and when they last applied. */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeclarativeStatus, SyncOutcome } from './declarative-storage.js';

const OUTCOMES: readonly SyncOutcome[] = ['applied', 'unchanged', 'invalid', 'error'];

/** What the metrics hear of (a DeclarativeStorage). */
export interface SyncEvents {
  onSync(listener: (outcome: SyncOutcome, status: DeclarativeStatus) => void): void;
}

/**
 * Registers the metrics on `registry`. Registered by every `ensign server` (zero with database
 * storage) so dashboards and alerts read the same series everywhere.
 */
export function registerDeclarativeMetrics(registry: Registry, storage?: SyncEvents): void {
  const syncs = new Counter({
    name: 'ensign_declarative_sync_total',
    help: 'Looks at the feature files of local or git storage, by outcome: applied (a changed set written), unchanged, invalid (the set refused; the last good state keeps serving), error (the source or the database failed).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of OUTCOMES) syncs.inc({ outcome }, 0);
  const lastSuccess = new Gauge({
    name: 'ensign_declarative_last_success_timestamp_seconds',
    help: 'When the feature files of local or git storage were last read and found valid (Unix time); 0 with database storage.',
    registers: [registry],
  });
  lastSuccess.set(0);
  storage?.onSync((outcome, status) => {
    syncs.inc({ outcome });
    if (status.lastSync !== undefined) lastSuccess.set(status.lastSync.getTime() / 1000);
  });
}
