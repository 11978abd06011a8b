import { AppError, Code, invalid, notFound } from '@ensign/core';
import { isDbUnavailable } from './db-unavailable.js';
import type { Dialect } from './types.js';

/** The AppErrors a caller wants for the constraint violations its statement can cause. */
export interface DbErrorHints {
  /** A unique or primary key violation. Default: InvalidArgument `not unique`. */
  notUnique?: () => AppError;
  /** A foreign key violation (missing parent, or a RESTRICT reference on delete). Default: NotFound. */
  foreignKey?: () => AppError;
}

type Kind = 'unique' | 'foreignKey' | 'constraint' | 'tooLong' | 'canceled';

const SQLITE: Readonly<Record<string, Kind>> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreignKey',
};
const POSTGRES: Readonly<Record<string, Kind>> = {
  '23505': 'unique',
  '23503': 'foreignKey',
  '23514': 'constraint',
  '22001': 'tooLong',
  '57014': 'canceled',
};
const MYSQL: Readonly<Record<number, Kind>> = {
  1062: 'unique',
  1451: 'foreignKey',
  1452: 'foreignKey',
  1406: 'tooLong',
  3819: 'constraint',
};

function kindOf(dialect: Dialect, err: { code?: unknown; errno?: unknown }): Kind | undefined {
  switch (dialect) {
    case 'sqlite':
      if (typeof err.code !== 'string') return undefined;
      return SQLITE[err.code] ?? (err.code.startsWith('SQLITE_CONSTRAINT') ? 'constraint' : undefined);
    case 'postgres':
    case 'cockroach':
      return typeof err.code === 'string' ? POSTGRES[err.code] : undefined;
    case 'mysql':
      return typeof err.errno === 'number' ? MYSQL[err.errno] : undefined;
  }
}

/** The driver error inside objection's wrapper, or the error itself. */
function driverErrorOf(err: object): { code?: unknown; errno?: unknown } {
  const native = (err as { nativeError?: unknown }).nativeError;
  return typeof native === 'object' && native !== null ? native : err;
}

/**
 * True for the errors a database raises when it aborted a transaction only because another one
 * raced it (deadlock, serialization failure, lock wait timeout): running it again is safe.
 */
export function isRetryableDbError(dialect: Dialect, err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const driverError = driverErrorOf(err);
  switch (dialect) {
    case 'sqlite':
      return driverError.code === 'SQLITE_BUSY';
    case 'postgres':
    case 'cockroach':
      return driverError.code === '40001' || driverError.code === '40P01';
    case 'mysql':
      return driverError.errno === 1213 || driverError.errno === 1205;
  }
}

/**
 * Turns a driver error into the AppError Flipt reports for it (duplicates are 400, dangling
 * references 404, a database that cannot be reached 503 with the driver's error as `cause`);
 * anything it does not recognise is returned unchanged.
 */
export function adaptDbError(dialect: Dialect, err: unknown, hints: DbErrorHints = {}): unknown {
  if (err instanceof AppError || typeof err !== 'object' || err === null) return err;
  // objection wraps driver errors in its own classes and keeps the driver's as `nativeError`.
  const driverError = driverErrorOf(err);
  if (isDbUnavailable(dialect, driverError)) {
    return new AppError(Code.Unavailable, 'database unavailable', { cause: driverError });
  }
  switch (kindOf(dialect, driverError)) {
    case 'unique':
      return hints.notUnique?.() ?? invalid('not unique');
    case 'foreignKey':
      return hints.foreignKey?.() ?? notFound('associated resource not found');
    case 'constraint':
      return invalid('constraint violated');
    case 'tooLong':
      return invalid('value too long');
    case 'canceled':
      return new AppError(Code.Canceled, 'query canceled');
    case undefined:
      return err;
  }
}
