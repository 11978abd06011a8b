/** Opens the store described by the configuration. */
import type { Actor } from '@ensign/core';
import { openStore, parseDatabaseUrl, type SqlStore } from '@ensign/store';
import type { EnsignConfig } from './config/config.schema.js';
import type { EmbeddedResources } from './embedded.js';

/** Opens (but does not migrate) the configured database; `actor` names who each write is made by. */
export function openConfiguredStore(config: EnsignConfig, options: { actor?: () => Actor | undefined; embedded?: EmbeddedResources } = {}): Promise<SqlStore> {
  const { db } = config;
  const { actor, embedded } = options;
  const sqliteAddon = embedded?.sqliteAddon !== undefined && parseDatabaseUrl(db.url).dialect === 'sqlite' ? embedded.sqliteAddon() : undefined;
  return openStore({
    url: db.url,
    ...(db.max_open_conn > 0 ? { maxOpenConn: db.max_open_conn } : {}),
    maxIdleConn: db.max_idle_conn,
    ...(db.conn_max_lifetime > 0 ? { connMaxLifetimeMs: db.conn_max_lifetime } : {}),
    preparedStatements: db.prepared_statements_enabled,
    ...(actor !== undefined ? { actor } : {}),
    ...(sqliteAddon !== undefined ? { sqliteNativeBinding: sqliteAddon } : {}),
  });
}
