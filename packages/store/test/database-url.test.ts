import test from 'ava';
import { parseDatabaseUrl } from '@ensign/store';

test('SQLite urls name a file in every accepted spelling', (t) => {
  for (const url of ['file:/var/opt/ensign/ensign.db', 'file:///var/opt/ensign/ensign.db', 'sqlite:/var/opt/ensign/ensign.db', 'sqlite3:///var/opt/ensign/ensign.db']) {
    t.deepEqual(parseDatabaseUrl(url), { dialect: 'sqlite', client: 'better-sqlite3', connection: { filename: '/var/opt/ensign/ensign.db' } }, url);
  }
  t.deepEqual(parseDatabaseUrl('file:data/ensign.db?_fk=true').connection, { filename: 'data/ensign.db' });
  t.deepEqual(parseDatabaseUrl('file:/tmp/with%20space.db').connection, { filename: '/tmp/with space.db' });
  t.deepEqual(parseDatabaseUrl('sqlite::memory:').connection, { filename: ':memory:' });
});

test('PostgreSQL urls are handed to pg as they are', (t) => {
  for (const scheme of ['postgres', 'postgresql']) {
    const url = `${scheme}://user:secret@db.example:5433/flags?sslmode=disable`;
    t.deepEqual(parseDatabaseUrl(url), {
      dialect: 'postgres',
      client: 'pg',
      connection: { connectionString: 'postgres://user:secret@db.example:5433/flags?sslmode=disable' },
    });
  }
});

test('CockroachDB urls use the pg driver through knex cockroachdb client', (t) => {
  for (const scheme of ['cockroach', 'cockroachdb', 'crdb']) {
    t.deepEqual(parseDatabaseUrl(`${scheme}://root@crdb:26257/defaultdb?sslmode=disable`), {
      dialect: 'cockroach',
      client: 'cockroachdb',
      connection: { connectionString: 'postgres://root@crdb:26257/defaultdb?sslmode=disable' },
    });
  }
});

test('MySQL urls become a mysql2 connection with utf8mb4', (t) => {
  t.deepEqual(parseDatabaseUrl('mysql://flipt:p%40ss@db.example/flags'), {
    dialect: 'mysql',
    client: 'mysql2',
    connection: {
      host: 'db.example',
      port: 3306,
      user: 'flipt',
      password: 'p@ss',
      database: 'flags',
      charset: 'utf8mb4',
      supportBigNumbers: true,
    },
  });
  t.like(parseDatabaseUrl('MYSQL://root@127.0.0.1:3307/x').connection, { host: '127.0.0.1', port: 3307, user: 'root', password: '', database: 'x' });
});

test('bad urls are refused with a reason under db.url', (t) => {
  const cases: Array<[string, string]> = [
    ['', 'db.url: must not be empty'],
    ['   ', 'db.url: must not be empty'],
    ['/var/opt/ensign.db', 'db.url: missing scheme (file:, postgres://, mysql://, cockroach://…)'],
    ['oracle://scott:tiger@db/orcl', 'db.url: unsupported scheme "oracle"'],
    ['file:', 'db.url: missing SQLite file path'],
    ['postgres://', 'db.url: missing host'],
    ['postgres://db.example', 'db.url: missing database name'],
    ['mysql://root@db.example:99999/x', 'db.url: malformed url'],
    ['mysql://root@db.example/', 'db.url: missing database name'],
  ];
  for (const [url, message] of cases) t.throws(() => parseDatabaseUrl(url), { message }, url);
});
