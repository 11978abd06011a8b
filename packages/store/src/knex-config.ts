import type { Knex } from 'knex';
import type { ParsedDatabaseUrl } from './database-url.js';
import type { StoreOptions } from './types.js';

/** How long a SQLite connection waits for another process's write lock before failing. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
const DEFAULT_POOL_MAX = 10;

interface SqliteConnection {
  pragma(source: string): unknown;
}

/** knex warns each time another instance holds the migration lock; waiting for it is expected. */
const EXPECTED_WARNINGS = [/^Can't take lock to run migrations/, /^If you are sure migrations are not running/];

const log: Knex.Logger = {
  warn(message: unknown) {
    const text = String(message);
    if (!EXPECTED_WARNINGS.some((re) => re.test(text))) console.warn(`knex: ${text}`);
  },
};

/** knex types `nativeBinding` as a path; better-sqlite3 takes the loaded addon as well, which is what an executable without files has. */
const withNativeBinding = (connection: Knex.StaticConnectionConfig, addon: object): Knex.StaticConnectionConfig =>
  ({ ...connection, options: { nativeBinding: addon } }) as unknown as Knex.StaticConnectionConfig;

/** The knex configuration for a parsed url and the pool options. */
export function knexConfig(parsed: ParsedDatabaseUrl, options: StoreOptions): Knex.Config {
  if (parsed.dialect === 'sqlite') {
    return {
      log,
      client: parsed.client,
      connection: options.sqliteNativeBinding === undefined ? parsed.connection : withNativeBinding(parsed.connection, options.sqliteNativeBinding),
      useNullAsDefault: true,
      // One connection: SQLite has a single writer, and a pool would only add lock contention.
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn: SqliteConnection, done: (err: Error | null, conn: SqliteConnection) => void) => {
          try {
            // The busy timeout first: turning a file to WAL takes an exclusive lock, which another
            // process reading the file (a server beside `ensign import`) holds back for a moment.
            conn.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
            conn.pragma('foreign_keys = ON');
            conn.pragma('journal_mode = WAL');
            done(null, conn);
          } catch (err) {
            done(err as Error, conn);
          }
        },
      },
    };
  }
  const max = options.maxOpenConn !== undefined && options.maxOpenConn > 0 ? options.maxOpenConn : DEFAULT_POOL_MAX;
  const pool: Knex.PoolConfig = { min: Math.min(Math.max(options.maxIdleConn ?? 0, 0), max), max };
  // tarn has no maximum connection age; closing idle connections after it is the nearest match.
  if (options.connMaxLifetimeMs !== undefined && options.connMaxLifetimeMs > 0) {
    pool.idleTimeoutMillis = options.connMaxLifetimeMs;
  }
  return { client: parsed.client, connection: parsed.connection, pool, log };
}
