/** One `ensign server` per evaluation test file, on a database of its own. */
import { createTestDatabase, type EnsignProcess, type JsonClient, jsonClient, startEnsign } from '@ensign/testkit';
import type { TestFn } from 'ava';
import type { Dialect } from './harness.js';

/** What every evaluation test receives. */
export interface EvalContext {
  api: JsonClient;
  server: EnsignProcess;
}

export type EvalTest = TestFn<EvalContext>;

/**
 * Starts `ensign server` on a fresh `dialect` database with `env` on top before the file's tests;
 * afterwards stops it (asserting exit 0 and showing any error lines it logged) and drops the database.
 */
export function useEvaluationServer(test: EvalTest, dialect: Dialect, env: Record<string, string> = {}): void {
  let drop: (() => Promise<void>) | undefined;
  test.before(async (t) => {
    const database = await createTestDatabase(dialect);
    drop = () => database.drop();
    const server = await startEnsign({ env: { ENSIGN_DB_URL: database.url, ENSIGN_LOG_LEVEL: 'warn', ...env } });
    t.context = { api: jsonClient(server.baseUrl), server };
  });
  test.after.always(async (t) => {
    try {
      const server = t.context?.server;
      if (server) {
        const logs = server.logs();
        t.is(await server.stop(), 0, logs);
        for (const line of server.logs().split('\n')) if (/^\{"level":(50|60)/.test(line)) t.log(line);
        // Bad input must never reach a 500: nothing was logged at error level.
        t.false(/^\{"level":(50|60)/m.test(server.logs()), 'the server logged errors');
      }
    } finally {
      await drop?.();
    }
  });
}
