import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** The engines every database-backed suite runs against on a developer or CI machine. */
export const TEST_DIALECTS = ['sqlite', 'postgres', 'mysql'] as const;
export type TestDialect = (typeof TEST_DIALECTS)[number];

/** A throw-away database: its `db.url` and how to remove it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const POSTGRES_HOST = 'postgres://postgres@127.0.0.1:5432';
const MYSQL = { host: '127.0.0.1', port: 3306, user: 'root' };

/** A random name, so parallel runs never share a database. */
const randomName = (): string => `ensign_t_${randomBytes(6).toString('hex')}`;

/** Creates an empty database of the given engine (SQLite: a file in a fresh temp directory). */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  switch (dialect) {
    case 'sqlite':
      return createSqlite();
    case 'postgres':
      return createPostgres();
    case 'mysql':
      return createMysql();
  }
}

async function createSqlite(): Promise<TestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'ensign-t-'));
  return { url: `file:${join(dir, 'ensign.db')}`, drop: () => rm(dir, { recursive: true, force: true }) };
}

async function withPostgres(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${POSTGRES_HOST}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function createPostgres(): Promise<TestDatabase> {
  const name = randomName();
  await withPostgres(`CREATE DATABASE "${name}"`);
  return {
    url: `${POSTGRES_HOST}/${name}`,
    drop: () => withPostgres(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function withMysql(sql: string): Promise<void> {
  const connection = await mysql.createConnection(MYSQL);
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

async function createMysql(): Promise<TestDatabase> {
  const name = randomName();
  await withMysql(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  return {
    url: `mysql://${MYSQL.user}@${MYSQL.host}:${MYSQL.port}/${name}`,
    drop: () => withMysql(`DROP DATABASE IF EXISTS \`${name}\``),
  };
}
