/**
 * `ensign server` and `ensign evaluator` with each component's start failed in turn: the command
 * exits 1, and every component started before the failing one is stopped, the last first, once.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eventually, freePort, NATS_URL, scratchDir, testBucket } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import { type Logger, pino } from 'pino';
import { evaluatorCommand } from '../src/commands/evaluator.command.js';
import { serverCommand } from '../src/commands/server.command.js';
import { loadConfig } from '../src/config/config.loader.js';
import type { EnsignConfig } from '../src/config/config.schema.js';
import type { LifecycleHooks } from '../src/lifecycle.js';

type Command = (config: EnsignConfig, logger: Logger, stopSignal: Promise<string>, hooks: LifecycleHooks) => Promise<number>;

const server: Command = (config, logger, stopSignal, hooks) => serverCommand(config, logger, stopSignal, {}, hooks);
const evaluator: Command = (config, logger, stopSignal, hooks) => evaluatorCommand(config, logger, stopSignal, () => undefined, hooks);

/** What one run of a command did: the components it started and every stop it made, in order. */
interface Run {
  code: number;
  started: string[];
  stops: string[];
  logs: string;
}

/** Runs `command`, failing the start of `failing` (if given); with none failing, it is stopped as by SIGTERM once started. */
async function runOnce(command: Command, env: Record<string, string>, failing?: string): Promise<Run> {
  const { config } = loadConfig({ env: { ...env, ENSIGN_SERVER_HTTP_PORT: String(await freePort()), ENSIGN_SERVER_GRPC_PORT: String(await freePort()) } });
  let logs = '';
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void ((logs += String(chunk)), done()) }));
  const run: Run = { code: -1, started: [], stops: [], logs: '' };
  let signal!: (name: string) => void;
  const stopSignal = new Promise<string>((resolve) => (signal = resolve));
  const hooks: LifecycleHooks = {
    start: async (name, start) => {
      if (name === failing) throw new Error(`${name} refused to start`);
      const value = await start();
      run.started.push(name);
      return value;
    },
    stop: async (name, stop) => {
      run.stops.push(name);
      return stop();
    },
  };
  const running = command(config, logger, stopSignal, hooks);
  if (failing === undefined) {
    await until(() => logs.includes('listening"'));
    signal('SIGTERM');
  }
  run.code = await running;
  run.logs = logs;
  return run;
}

/** Fails each component of a full start in turn; checks the command's exit and its unwinding. */
async function failEachInTurn(t: ExecutionContext, command: Command, env: Record<string, string>): Promise<void> {
  const before = process.getActiveResourcesInfo();
  const full = await runOnce(command, env);
  t.is(full.code, 0, full.logs);
  // The components that have something to stop, in start order.
  const stoppable = full.started.filter((name) => full.stops.includes(name));
  t.deepEqual(full.stops, [...stoppable].reverse(), 'a stop signal stops every component, the last started first, once');
  t.true(await eventually(() => leftRunning(before).length === 0), `left running after the stop signal: ${leftRunning(before).join(', ')}`);
  t.true(full.started.length >= 8, full.started.join(', '));
  for (const failing of full.started) {
    const baseline = process.getActiveResourcesInfo();
    const run = await runOnce(command, env, failing);
    // Nothing it started keeps running: the timers, sockets and files in use return to what they were.
    t.true(await eventually(() => leftRunning(baseline).length === 0), `${failing}: left running: ${leftRunning(baseline).join(', ')}`);
    t.is(run.code, 1, `${failing}: ${run.logs}`);
    t.true(run.logs.includes(`start-up failed: ${failing} refused to start`), failing);
    const earlier = full.started.slice(0, full.started.indexOf(failing));
    t.deepEqual(run.started, earlier, `${failing}: nothing after it is started`);
    t.deepEqual(run.stops, stoppable.filter((name) => earlier.includes(name)).reverse(), `${failing}: everything started before it is stopped, the last first, once`);
  }
}

test.serial('ensign server on a database, scaled out over NATS, with a read cache and an audit log', async (t) => {
  const bucket = testBucket();
  t.teardown(() => bucket.drop());
  const dir = scratchDir();
  await failEachInTurn(t, server, {
    ...bucket.env(NATS_URL),
    ENSIGN_DB_URL: `file:${join(dir, 'ensign.db')}`,
    ENSIGN_CACHE_ENABLED: 'true',
    ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'true',
    ENSIGN_AUDIT_SINKS_LOG_FILE: join(dir, 'audit.log'),
  });
});

test.serial('ensign server following local feature files', async (t) => {
  const dir = scratchDir();
  mkdirSync(join(dir, 'features'));
  writeFileSync(join(dir, 'features', 'features.yml'), 'namespace: default\nflags:\n  - key: shown\n    name: Shown\n    type: BOOLEAN_FLAG_TYPE\n    enabled: true\n');
  await failEachInTurn(t, server, { ENSIGN_DB_URL: `file:${join(dir, 'ensign.db')}`, ENSIGN_STORAGE_TYPE: 'local', ENSIGN_STORAGE_LOCAL_PATH: join(dir, 'features') });
});

test.serial('ensign evaluator with authentication required and evaluation counts shipped over NATS', async (t) => {
  const bucket = testBucket();
  t.teardown(() => bucket.drop());
  await failEachInTurn(t, evaluator, { ...bucket.env(NATS_URL), ENSIGN_AUTHENTICATION_REQUIRED: 'true' });
});

/** Resolves once `condition` holds, checking every few milliseconds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The resources (timers, sockets, file requests) in use now beyond those of `baseline`. */
function leftRunning(baseline: string[]): string[] {
  const known = [...baseline];
  return process.getActiveResourcesInfo().filter((resource) => {
    const at = known.indexOf(resource);
    if (at === -1) return true;
    known.splice(at, 1);
    return false;
  });
}
