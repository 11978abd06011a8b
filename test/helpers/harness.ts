/** One `ensign server` per test file and database dialect, shared by that file's tests. */
import { createTestDatabase, type EnsignProcess, type JsonClient, jsonClient, startEnsign } from '@ensign/testkit';
import type { TestFn } from 'ava';

export type Dialect = 'sqlite' | 'postgres' | 'mysql';

/** What every API test receives. */
export interface ApiContext {
  api: JsonClient;
  dialect: Dialect;
  server: EnsignProcess;
}

export type ApiTest = TestFn<ApiContext>;

/**
 * Starts `ensign server` on a fresh database of `dialect` before the file's tests, and after them
 * stops it (asserting a clean exit 0 on SIGTERM) and drops the database.
 */
export function useServer(test: ApiTest, dialect: Dialect): void {
  let drop: (() => Promise<void>) | undefined;
  test.before(async (t) => {
    const database = await createTestDatabase(dialect);
    drop = () => database.drop();
    const server = await startEnsign({ env: { ENSIGN_DB_URL: database.url, ENSIGN_LOG_LEVEL: 'warn' } });
    t.context = { api: jsonClient(server.baseUrl), dialect, server };
  });
  test.after.always(async (t) => {
    try {
      const server = t.context?.server;
      if (server) {
        t.is(await server.stop(), 0, server.logs());
        // Server-side errors (a 500's cause) are only in the process log; show them with the report.
        for (const line of server.logs().split('\n')) if (/^\{"level":(50|60)/.test(line)) t.log(line);
      }
    } finally {
      await drop?.();
    }
  });
}
