/**
 * `ensign server`s holding Flipt's readonly test data, one per way of loading it, each on a SQLite
 * file of its own and configured as Flipt's suite runs Flipt: authentication required, a known
 * bootstrap token, and Flipt's bucketing (`evaluation.hash: crc32`).
 */
import { join } from 'node:path';
import { createTestDatabase, type EnsignProcess, type JsonClient, runEnsign, startEnsign } from '@ensign/testkit';
import { withToken } from './auth.js';
import { FLIPT_READONLY_FILES, fliptReadonlyDir, type ReadonlyTree } from './flipt-readonly-fixtures.js';

/**
 * How the data gets into Ensign: `ensign import <file>` into the database before the server starts;
 * `ensign import --address … --token … <file>` into the running server, as Flipt's suite imports it;
 * `storage.type: local` serving the directory.
 */
export const LOADING_WAYS = ['import', 'import --address', 'declarative'] as const;
export type LoadingWay = (typeof LOADING_WAYS)[number];

/** The token every request of the suite presents, as Flipt's harness does. */
export const READONLY_TOKEN = 'flipt-readonly-s3cr3t';

export interface ReadonlyServer {
  /** A client presenting the bootstrap token. */
  api: JsonClient;
  server: EnsignProcess;
  /** The environment the server runs with (its database, its configuration), for other `ensign` commands. */
  env: Record<string, string>;
  /** Stops the server (resolving its exit code) and removes its database. */
  stop(): Promise<number>;
}

const SERVER_ENV = {
  ENSIGN_LOG_LEVEL: 'warn',
  ENSIGN_EVALUATION_HASH: 'crc32',
  ENSIGN_AUTHENTICATION_REQUIRED: 'true',
  ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
  ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: READONLY_TOKEN,
};

/** Runs `ensign <args…>`; a failure rejects with its output. */
async function ensign(args: string[], env: Record<string, string>): Promise<void> {
  const result = await runEnsign(args, { env, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`ensign ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
}

/** Starts a server holding `tree` loaded the `way` given; `overrides` change its environment (another `ENSIGN_EVALUATION_HASH`). */
export async function startReadonlyServer(way: LoadingWay, tree: ReadonlyTree, overrides: Record<string, string> = {}): Promise<ReadonlyServer> {
  const database = await createTestDatabase('sqlite');
  const dir = fliptReadonlyDir(tree);
  const files = FLIPT_READONLY_FILES.map((file) => join(dir, file));
  const env: Record<string, string> = { ...SERVER_ENV, ...overrides, ENSIGN_DB_URL: database.url };
  if (way === 'declarative') Object.assign(env, { ENSIGN_STORAGE_TYPE: 'local', ENSIGN_STORAGE_LOCAL_PATH: dir });
  let server: EnsignProcess | undefined;
  try {
    if (way === 'import') for (const file of files) await ensign(['import', file], env);
    server = await startEnsign({ env });
    if (way === 'import --address') for (const file of files) await ensign(['import', '--address', server.baseUrl, '--token', READONLY_TOKEN, file], env);
    const running = server;
    return {
      api: withToken(server.baseUrl, READONLY_TOKEN),
      server,
      env,
      stop: async () => {
        try {
          return await running.stop();
        } finally {
          await database.drop();
        }
      },
    };
  } catch (error) {
    await server?.stop();
    await database.drop();
    throw error;
  }
}
