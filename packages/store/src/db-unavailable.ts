import type { Dialect } from './types.js';

/** Socket and resolver failures of any engine's driver: the server cannot be reached. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
/** PostgreSQL's admin shutdown, crash shutdown and "cannot connect now" (class 08 is checked apart). */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03']);
const MYSQL_CODES = new Set(['PROTOCOL_CONNECTION_LOST', 'ER_CON_COUNT_ERROR']);
/** node-postgres reports a connection lost under a pooled client with these messages and no code. */
const PG_LOST_MESSAGES = ['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable'];

interface ErrorFields {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  errors?: unknown;
}

function isEngineUnreachable(dialect: Dialect, code: string): boolean {
  switch (dialect) {
    case 'postgres':
    case 'cockroach':
      return (code.length === 5 && code.startsWith('08')) || POSTGRES_CODES.has(code);
    case 'mysql':
      return MYSQL_CODES.has(code);
    case 'sqlite':
      return code === 'SQLITE_CANTOPEN' || code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR');
  }
}

/**
 * True when `err` says the database cannot serve at all (down, unreachable, out of connections or
 * disk) rather than that the statement was wrong; `err` is the driver's error, unwrapped.
 */
export function isDbUnavailable(dialect: Dialect, err: ErrorFields): boolean {
  if (typeof err.code === 'string' && (NETWORK_CODES.has(err.code) || isEngineUnreachable(dialect, err.code))) return true;
  // knex puts the statement in front of the driver's message.
  const message = typeof err.message === 'string' ? err.message : '';
  if ((dialect === 'postgres' || dialect === 'cockroach') && PG_LOST_MESSAGES.some((m) => message.endsWith(m))) return true;
  if (err.name === 'KnexTimeoutError' && message.includes('Timeout acquiring a connection')) return true;
  // knex's answer once its pool has been destroyed.
  if (message === 'Unable to acquire a connection') return true;
  // A host with several addresses fails with every attempt's error.
  return Array.isArray(err.errors) && err.errors.some((e: unknown) => typeof e === 'object' && e !== null && isDbUnavailable(dialect, e));
}
