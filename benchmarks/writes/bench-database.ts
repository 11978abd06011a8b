/** A throw-away database per run, so every figure starts from the rows the run seeded and nothing else. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@ensign/testkit';
import pg from 'pg';
import type { BenchDb } from './options.js';

const POSTGRES = 'postgres://postgres@127.0.0.1:5432';

export interface BenchDatabase {
  url: string;
  /**
   * Runs the seeding. On PostgreSQL its connections do not wait for each commit to reach the disk
   * (`synchronous_commit = off`, which changes no row), halving the time of tens of thousands of
   * calls; the setting is reset before the server opens its own connections.
   */
  seeding<T>(work: () => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

async function onPostgres(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * SQLite: a file in a fresh temp directory; PostgreSQL: a fresh database `ensign_bench_<random>`;
 * MariaDB / MySQL: a fresh database of root@127.0.0.1:3306, as the test suites make them.
 */
export async function createBenchDatabase(db: BenchDb): Promise<BenchDatabase> {
  if (db === 'sqlite') {
    const dir = mkdtempSync(join(os.tmpdir(), 'ensign-writes-'));
    return { url: `file:${join(dir, 'ensign.db')}`, seeding: (work) => work(), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (db === 'mysql') {
    const database = await createTestDatabase('mysql');
    return { url: database.url, seeding: (work) => work(), drop: () => database.drop() };
  }
  const name = `ensign_bench_${randomBytes(6).toString('hex')}`;
  await onPostgres(`CREATE DATABASE "${name}"`);
  return {
    url: `${POSTGRES}/${name}`,
    async seeding(work) {
      await onPostgres(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
      try {
        return await work();
      } finally {
        await onPostgres(`ALTER DATABASE "${name}" RESET synchronous_commit`);
      }
    },
    drop: () => onPostgres(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
