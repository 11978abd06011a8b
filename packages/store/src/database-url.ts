import type { Knex } from 'knex';
import type { Dialect } from './types.js';

/** A `db.url` resolved to the knex client and connection that serve it. */
export interface ParsedDatabaseUrl {
  dialect: Dialect;
  client: 'better-sqlite3' | 'pg' | 'cockroachdb' | 'mysql2';
  connection: Knex.StaticConnectionConfig;
}

const SQLITE_SCHEMES = ['file:', 'sqlite:', 'sqlite3:'];
const POSTGRES_SCHEMES = ['postgres:', 'postgresql:'];
const COCKROACH_SCHEMES = ['cockroach:', 'cockroachdb:', 'crdb:'];

const fail = (why: string): Error => new Error(`db.url: ${why}`);

/** Turns a `db.url` into a knex client and connection; throws `db.url: <why>` when it cannot. */
export function parseDatabaseUrl(url: string): ParsedDatabaseUrl {
  const trimmed = url.trim();
  if (trimmed === '') throw fail('must not be empty');
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(trimmed)?.[0]?.toLowerCase();
  if (scheme === undefined) throw fail('missing scheme (file:, postgres://, mysql://, cockroach://…)');
  if (SQLITE_SCHEMES.includes(scheme)) return parseSqlite(trimmed.slice(scheme.length));
  if (POSTGRES_SCHEMES.includes(scheme)) return parseServer('postgres', 'pg', `postgres:${trimmed.slice(scheme.length)}`);
  if (COCKROACH_SCHEMES.includes(scheme)) {
    return parseServer('cockroach', 'cockroachdb', `postgres:${trimmed.slice(scheme.length)}`);
  }
  if (scheme === 'mysql:') return parseMysql(trimmed);
  throw fail(`unsupported scheme "${scheme.slice(0, -1)}"`);
}

function parseSqlite(rest: string): ParsedDatabaseUrl {
  // `file:///abs/x.db` and `file:/abs/x.db` both name /abs/x.db; a query string (`?_fk=true`) is ignored.
  let path = rest.split('?')[0] ?? '';
  if (path.startsWith('//')) path = path.slice(2);
  path = decodeURIComponent(path);
  if (path === '') throw fail('missing SQLite file path');
  return { dialect: 'sqlite', client: 'better-sqlite3', connection: { filename: path } };
}

function parseServer(dialect: Dialect, client: 'pg' | 'cockroachdb', url: string): ParsedDatabaseUrl {
  const parsed = parseUrl(url);
  if (parsed.hostname === '') throw fail('missing host');
  if (databaseName(parsed) === '') throw fail('missing database name');
  return { dialect, client, connection: { connectionString: url } };
}

function parseMysql(url: string): ParsedDatabaseUrl {
  const parsed = parseUrl(url);
  if (parsed.hostname === '') throw fail('missing host');
  const database = databaseName(parsed);
  if (database === '') throw fail('missing database name');
  const connection: Knex.MySql2ConnectionConfig = {
    host: parsed.hostname,
    port: parsed.port === '' ? 3306 : Number(parsed.port),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
    charset: 'utf8mb4',
    supportBigNumbers: true,
  };
  return { dialect: 'mysql', client: 'mysql2', connection };
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw fail('malformed url');
  }
}

function databaseName(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\//, ''));
}
