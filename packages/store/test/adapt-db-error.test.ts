import test from 'ava';
import { AppError, Code, errorBody, httpStatusOf, invalid } from '@ensign/core';
import { adaptDbError } from '@ensign/store';
import type { Dialect } from '@ensign/store';

const driverError = (fields: Record<string, unknown>): Error => Object.assign(new Error('driver says no'), fields);

const check = (t: import('ava').ExecutionContext, adapted: unknown, code: Code, message: string, label: string) => {
  t.true(adapted instanceof AppError, label);
  t.is((adapted as AppError).code, code, label);
  t.is((adapted as AppError).message, message, label);
};

const CASES: Array<[Dialect, Record<string, unknown>, 'unique' | 'foreignKey' | 'canceled' | 'tooLong']> = [
  ['sqlite', { code: 'SQLITE_CONSTRAINT_UNIQUE' }, 'unique'],
  ['sqlite', { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }, 'unique'],
  ['sqlite', { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }, 'foreignKey'],
  ['postgres', { code: '23505' }, 'unique'],
  ['postgres', { code: '23503' }, 'foreignKey'],
  ['postgres', { code: '57014' }, 'canceled'],
  ['postgres', { code: '22001' }, 'tooLong'],
  ['cockroach', { code: '23505' }, 'unique'],
  ['cockroach', { code: '23503' }, 'foreignKey'],
  ['mysql', { errno: 1062, code: 'ER_DUP_ENTRY' }, 'unique'],
  ['mysql', { errno: 1452 }, 'foreignKey'],
  ['mysql', { errno: 1451 }, 'foreignKey'],
  ['mysql', { errno: 1406 }, 'tooLong'],
];

test('driver constraint errors become the AppErrors Flipt reports', (t) => {
  for (const [dialect, fields, kind] of CASES) {
    const label = `${dialect} ${JSON.stringify(fields)}`;
    const adapted = adaptDbError(dialect, driverError(fields));
    if (kind === 'unique') check(t, adapted, Code.InvalidArgument, 'not unique', label);
    if (kind === 'foreignKey') check(t, adapted, Code.NotFound, 'associated resource not found', label);
    if (kind === 'canceled') check(t, adapted, Code.Canceled, 'query canceled', label);
    if (kind === 'tooLong') check(t, adapted, Code.InvalidArgument, 'value too long', label);
  }
});

test('callers name the duplicate or the dangling reference', (t) => {
  const hints = { notUnique: () => invalid('flag "default/a" is not unique'), foreignKey: () => invalid('segment "default/s" is in use') };
  check(t, adaptDbError('postgres', driverError({ code: '23505' }), hints), Code.InvalidArgument, 'flag "default/a" is not unique', 'pg unique');
  check(t, adaptDbError('mysql', driverError({ errno: 1451 }), hints), Code.InvalidArgument, 'segment "default/s" is in use', 'mysql fk');
  check(t, adaptDbError('sqlite', driverError({ code: 'SQLITE_CONSTRAINT_CHECK' })), Code.InvalidArgument, 'constraint violated', 'sqlite check');
});

test('anything else is returned unchanged', (t) => {
  const appError = invalid('already adapted');
  t.is(adaptDbError('postgres', appError), appError);
  const other = driverError({ code: '42P01' });
  t.is(adaptDbError('postgres', other), other);
  // Connection codes mean something only to their own engine too.
  const mysqlLost = driverError({ code: 'PROTOCOL_CONNECTION_LOST' });
  t.is(adaptDbError('postgres', mysqlLost), mysqlLost);
  const pgShutdown = driverError({ code: '57P01' });
  t.is(adaptDbError('sqlite', pgShutdown), pgShutdown);
  const pgMessageElsewhere = new Error('select 1 - Connection terminated unexpectedly');
  t.is(adaptDbError('mysql', pgMessageElsewhere), pgMessageElsewhere);
  const knexOtherTimeout = Object.assign(new Error('operation timed out'), { name: 'KnexTimeoutError' });
  t.is(adaptDbError('postgres', knexOtherTimeout), knexOtherTimeout);
  // A code means something only to its own driver.
  const sqliteCode = driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
  t.is(adaptDbError('postgres', sqliteCode), sqliteCode);
  const mysqlNumber = driverError({ errno: 1062 });
  t.is(adaptDbError('sqlite', mysqlNumber), mysqlNumber);
  t.is(adaptDbError('mysql', 'a string'), 'a string');
  t.is(adaptDbError('mysql', undefined), undefined);
});

const UNAVAILABLE: Array<[Dialect, Error]> = [
  ...(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'] as const).flatMap((code) =>
    (['sqlite', 'postgres', 'mysql', 'cockroach'] as const).map((dialect): [Dialect, Error] => [dialect, driverError({ code })]),
  ),
  ['postgres', driverError({ code: '08006' })],
  ['postgres', driverError({ code: '08001' })],
  ['cockroach', driverError({ code: '08003' })],
  ['postgres', driverError({ code: '57P01' })],
  ['postgres', driverError({ code: '57P02' })],
  ['postgres', driverError({ code: '57P03' })],
  ['mysql', driverError({ code: 'PROTOCOL_CONNECTION_LOST' })],
  ['mysql', driverError({ code: 'ER_CON_COUNT_ERROR', errno: 1040 })],
  ['sqlite', driverError({ code: 'SQLITE_CANTOPEN' })],
  ['sqlite', driverError({ code: 'SQLITE_IOERR' })],
  ['sqlite', driverError({ code: 'SQLITE_IOERR_WRITE' })],
  ['sqlite', driverError({ code: 'SQLITE_FULL' })],
  ['mysql', Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' })],
  ['postgres', new Error('Unable to acquire a connection')],
  ['postgres', new Error('select 1 - Connection terminated unexpectedly')],
  ['cockroach', new Error('Client has encountered a connection error and is not queryable')],
  ['postgres', new AggregateError([driverError({ code: 'ECONNREFUSED' }), driverError({ code: 'ECONNREFUSED' })], 'connect failed')],
];

test('a database that cannot be reached is Unavailable (503), with the driver error as the cause', (t) => {
  for (const [dialect, err] of UNAVAILABLE) {
    const label = `${dialect} ${(err as { code?: string }).code ?? err.message}`;
    const adapted = adaptDbError(dialect, err);
    check(t, adapted, Code.Unavailable, 'database unavailable', label);
    t.is((adapted as Error).cause, err, label);
  }
});

test('the driver error inside objection\'s wrapper is the cause', (t) => {
  const native = driverError({ code: 'ECONNREFUSED' });
  const wrapped = Object.assign(new Error('wrapped'), { nativeError: native });
  const adapted = adaptDbError('postgres', wrapped);
  check(t, adapted, Code.Unavailable, 'database unavailable', 'wrapped');
  t.is((adapted as Error).cause, native);
  // The cause is for the log: the status and body are those of any 503.
  t.is(httpStatusOf((adapted as AppError).code), 503);
  t.deepEqual(errorBody(adapted as AppError), { code: Code.Unavailable, message: 'database unavailable', details: [] });
  t.false(JSON.stringify(adapted).includes('ECONNREFUSED'));
});
