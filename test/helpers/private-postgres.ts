/**
 * A PostgreSQL server of one test's own: its own data directory and port, so the test can kill it
 * with SIGKILL and start it again without touching the machine's shared server. Run as the
 * `postgres` user when the tests run as root (PostgreSQL refuses root), as the test's user
 * otherwise.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, scratchDir } from '@ensign/testkit';
import pg from 'pg';

/** Debian's layout: /usr/lib/postgresql/<major>/bin. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin/postgres'))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error('PostgreSQL server binaries are not installed (apt-get install -y postgresql)');
  return join(root, newest, 'bin');
}

/** The uid and gid the server runs as: postgres's under root, else none (the test's own). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  return { uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) };
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** Starts the server (again), waiting until it takes connections. */
  start(): Promise<void>;
  /** SIGKILL to the postmaster: no shutdown, no checkpoint; the next start recovers from the WAL. */
  kill9(): Promise<void>;
  /** Rows of `sql` run on the server. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
  /** Stops the server and removes its data. */
  remove(): Promise<void>;
}

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const user = runAs();
  const dir = scratchDir('ensign-pg-');
  const data = join(dir, 'data');
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], { stdio: 'pipe', ...(user ?? {}) });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;
  let output = '';

  const accepts = async (): Promise<boolean> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const start = async (): Promise<void> => {
    // After a SIGKILL the old backends may still hold the shared memory for a moment: the first
    // tries are refused for that, and tried again.
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server === undefined || server.exitCode !== null || server.signalCode !== null) {
        const child = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
        child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        server = child;
      }
      if (await accepts()) return;
      if (Date.now() > deadline) throw new Error(`the private PostgreSQL on port ${port} did not start within 60 s:\n${output.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const stopped = (child: ChildProcess): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

  await start();
  return {
    url,
    port,
    start,
    async kill9() {
      const child = server;
      if (child === undefined) return;
      child.kill('SIGKILL');
      await stopped(child);
    },
    async query(sql, values) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, values)).rows;
      } finally {
        await client.end();
      }
    },
    async remove() {
      const child = server;
      if (child !== undefined) {
        child.kill('SIGTERM');
        await stopped(child);
      }
      execFileSync('rm', ['-rf', dir]);
    },
  };
}
