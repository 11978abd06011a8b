/** Opens the store described by the configuration. */
import { type NamespaceChange, openStore, parseDatabaseUrl, type SqlStore } from '@ensign/store';
import type { EnsignConfig } from './config/config.schema.js';
import type { EmbeddedResources } from './embedded.js';

/** Opens (but does not migrate) the configured database; `onCommit` hears of every committed write. */
export function openConfiguredStore(config: EnsignConfig, options: { onCommit?: (change: NamespaceChange) => void; embedded?: EmbeddedResources } = {}): Promise<SqlStore> {
  const { db } = config;
  const { onCommit, embedded } = options;
  const sqliteAddon = embedded?.sqliteAddon !== undefined && parseDatabaseUrl(db.url).dialect === 'sqlite' ? embedded.sqliteAddon() : undefined;
  return openStore({
    url: db.url,
    ...(db.max_open_conn > 0 ? { maxOpenConn: db.max_open_conn } : {}),
    maxIdleConn: db.max_idle_conn,
    ...(db.conn_max_lifetime > 0 ? { connMaxLifetimeMs: db.conn_max_lifetime } : {}),
    ...(onCommit !== undefined ? { onCommit } : {}),
    ...(sqliteAddon !== undefined ? { sqliteNativeBinding: sqliteAddon } : {}),
  });
}
