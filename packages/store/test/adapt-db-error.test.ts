import test from 'ava';
import { AppError, Code, invalid } from '@ensign/core';
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
  const other = driverError({ code: '08006' });
  t.is(adaptDbError('postgres', other), other);
  // A code means something only to its own driver.
  const sqliteCode = driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
  t.is(adaptDbError('postgres', sqliteCode), sqliteCode);
  const mysqlNumber = driverError({ errno: 1062 });
  t.is(adaptDbError('sqlite', mysqlNumber), mysqlNumber);
  t.is(adaptDbError('mysql', 'a string'), 'a string');
  t.is(adaptDbError('mysql', undefined), undefined);
});
