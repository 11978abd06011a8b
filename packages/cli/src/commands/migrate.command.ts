/** `ensign migrate`: apply pending migrations and report them. */
import type { SqlStore } from '@ensign/store';
import type { Logger } from 'pino';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import type { EmbeddedResources } from '../embedded.js';

/** Applies pending migrations, writes one line per applied migration (or "up to date") to `out`. */
export async function migrateCommand(config: EnsignConfig, logger: Logger, out: (line: string) => void, embedded: EmbeddedResources = {}): Promise<number> {
  let store: SqlStore | undefined;
  try {
    store = await openConfiguredStore(config, { embedded });
    const applied = await store.migrate();
    if (applied.length === 0) out('database schema is up to date');
    for (const name of applied) out(`applied ${name}`);
    await store.close();
    return 0;
  } catch (err) {
    logger.error({ err }, `migration failed: ${(err as Error).message}`);
    await store?.close().catch(() => undefined);
    return 1;
  }
}
