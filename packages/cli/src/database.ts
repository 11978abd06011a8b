/** Opens the store described by the configuration. */
import { openStore, type SqlStore } from '@ensign/store';
import type { EnsignConfig } from './config/config.schema.js';

/** Opens (but does not migrate) the configured database. */
export function openConfiguredStore(config: EnsignConfig): Promise<SqlStore> {
  const { db } = config;
  return openStore({
    url: db.url,
    ...(db.max_open_conn > 0 ? { maxOpenConn: db.max_open_conn } : {}),
    maxIdleConn: db.max_idle_conn,
    ...(db.conn_max_lifetime > 0 ? { connMaxLifetimeMs: db.conn_max_lifetime } : {}),
  });
}
