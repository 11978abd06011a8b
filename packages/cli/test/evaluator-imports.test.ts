import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensignMain, repositoryRoot, scratchDir, startEnsign, testBucket } from '@ensign/testkit';

/** `node --import` preload that writes down every module an `ensign` process loads. */
const tracer = fileURLToPath(new URL('./helpers/module-trace.js', import.meta.url));
const workspacePackages = join(repositoryRoot, 'packages') + sep;

/**
 * What only the control plane needs: the web framework, the database layer with its drivers,
 * Redis, and our packages built on them. An evaluator that loads any of these pays for them in
 * start-up time and memory, and breaks where they are not installed.
 */
const SERVER_ONLY = ['koa', '@koa/router', 'koa-body', 'knex', 'objection', 'pg', 'mysql2', 'better-sqlite3', 'ioredis', '@ensign/control-plane', '@ensign/store'];
/** The one module of the store that configuration loading may read: the `db.url` parser, which imports nothing at run time. */
const DATABASE_URL_PARSER = pathToFileURL(join(repositoryRoot, 'packages/store/dist/src/database-url.js')).href;

/** The package a loaded module belongs to: the innermost `node_modules` entry, or the workspace package. */
function packageOf(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url);
  const inModules = path.split(`${sep}node_modules${sep}`).at(-1);
  if (inModules !== undefined && inModules !== path) {
    const [first = '', second = ''] = inModules.split(sep);
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (path.startsWith(workspacePackages)) return `@ensign/${path.slice(workspacePackages.length).split(sep)[0]}`;
  return undefined;
}

/** Starts `ensign <command>` under the tracer, waits until `/health` answers 200, stops it, and returns the modules it had loaded by then. */
async function modulesLoadedBy(command: 'server' | 'evaluator', env: Record<string, string>): Promise<string[]> {
  const trace = join(scratchDir('ensign-module-trace-'), 'modules.txt');
  writeFileSync(trace, '');
  const ensign = await startEnsign({ command, env: { ...env, MODULE_TRACE_FILE: trace }, launcher: [process.execPath, '--import', tracer, ensignMain] });
  const loaded = readFileSync(trace, 'utf8');
  const code = await ensign.stop();
  if (code !== 0) throw new Error(`ensign ${command} exited with ${code}:\n${ensign.logs()}`);
  return loaded.split('\n').filter((url) => url !== '');
}

const packagesOf = (urls: readonly string[]): Set<string> => new Set(urls.flatMap((url) => packageOf(url) ?? []));

test('ensign evaluator serves without loading the web framework, the database layer, Redis or the control plane', async (t) => {
  const bucket = testBucket('ensign_imports');
  t.teardown(() => bucket.drop());
  const loaded = packagesOf((await modulesLoadedBy('evaluator', bucket.env())).filter((url) => url !== DATABASE_URL_PARSER));

  t.true(loaded.has('@ensign/evaluator') && loaded.has('nats'), 'the trace holds what the evaluator runs on');
  t.deepEqual(SERVER_ONLY.filter((name) => loaded.has(name)), [], 'server-only packages the evaluator loaded');
});

test('ensign server, traced the same way, loads koa, knex and the SQLite driver knex requires', async (t) => {
  const loaded = packagesOf(await modulesLoadedBy('server', {}));

  // better-sqlite3 is reached only through `require` inside knex: it shows the trace sees CommonJS loads too.
  const expected = ['koa', 'knex', 'better-sqlite3', '@ensign/control-plane', '@ensign/store'];
  t.deepEqual(expected.filter((name) => !loaded.has(name)), [], 'server packages the trace missed');
});
