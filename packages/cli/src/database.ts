/** Opens the store described by the configuration. */
import { type NamespaceChange, openStore, type SqlStore } from '@ensign/store';
import type { EnsignConfig } from './config/config.schema.js';

/** Opens (but does not migrate) the configured database; `onCommit` hears of every committed write. */
export function openConfiguredStore(config: EnsignConfig, onCommit?: (change: NamespaceChange) => void): Promise<SqlStore> {
  const { db } = config;
  return openStore({
    url: db.url,
    ...(db.max_open_conn > 0 ? { maxOpenConn: db.max_open_conn } : {}),
    maxIdleConn: db.max_idle_conn,
    ...(db.conn_max_lifetime > 0 ? { connMaxLifetimeMs: db.conn_max_lifetime } : {}),
    ...(onCommit !== undefined ? { onCommit } : {}),
  });
}
