/** Runs one `ensign` invocation and resolves its exit code; `main.ts` binds it to the process. */
import cluster from 'node:cluster';
import { parseCommandLine } from './cli.js';
import { ConfigError, type LoadedConfig, loadConfig } from './config/config.loader.js';
import type { EmbeddedResources } from './embedded.js';
import { workerCountOf } from './evaluator-cluster/worker-count.js';
import { createLogger } from './logger.js';
import { buildInfo } from './version.js';
import { type RunningTracing, startTracing } from './otel-tracing.js';
import { tuneYoungGeneration } from './young-generation.js';

/** What an invocation may touch of its process. */
export interface ProcessIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Resolves with the signal's name when the process is asked to stop (server only). */
  waitForStop(): Promise<string>;
}

/** Exit codes: 0 success, 1 runtime failure, 2 bad command line or configuration. */
export const EXIT_USAGE = 2;

/** Runs `ensign <argv…>` and resolves the process exit code; a single-file executable passes what it embeds. */
export async function run(argv: readonly string[], io: ProcessIo, embedded: EmbeddedResources = {}): Promise<number> {
  const invocation = parseCommandLine(argv);
  switch (invocation.kind) {
    case 'help':
      io.stdout(invocation.text);
      return 0;
    case 'version': {
      const info = buildInfo();
      io.stdout(`Version: ${info.version}\nCommit: ${info.commit}\nBuild Date: ${info.buildDate}\nNode Version: ${process.version}\n`);
      return 0;
    }
    case 'usage-error':
      io.stderr(`ensign: ${invocation.message}\n\n${invocation.usage}`);
      return EXIT_USAGE;
    case 'run':
      break;
  }

  let loaded: LoadedConfig;
  try {
    loaded = loadConfig({ configPath: invocation.configPath, env: io.env });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr(`ensign: invalid configuration: ${err.message}\n`);
    return EXIT_USAGE;
  }
  // export and import write documents and results to stdout: their log lines go to stderr.
  const transfer = invocation.command === 'export' || invocation.command === 'import' || invocation.command === 'authz' || invocation.command === 'change-request';
  const logger = createLogger(loaded.config, transfer ? 'stderr' : 'stdout');
  for (const warning of loaded.warnings) logger.warn(warning);

  // Each command is loaded only when it runs: an evaluator never loads the database drivers or the
  // control plane that the server and migrate commands import.
  if (invocation.command === 'migrate') {
    const { migrateCommand } = await import('./commands/migrate.command.js');
    return migrateCommand(loaded.config, logger, (line) => io.stdout(`${line}\n`), embedded);
  }
  if (invocation.command === 'export') {
    const { exportCommand } = await import('./commands/export.command.js');
    return exportCommand(loaded.config, invocation.args, io, embedded);
  }
  if (invocation.command === 'import') {
    const { importCommand } = await import('./commands/import.command.js');
    return importCommand(loaded.config, invocation.args, io, embedded);
  }
  if (invocation.command === 'authz') {
    const { authzExplainCommand } = await import('./commands/authz-explain.command.js');
    return authzExplainCommand(invocation.args, io);
  }
  if (invocation.command === 'change-request') {
    const { changeRequestCommand } = await import('./commands/change-request.command.js');
    return changeRequestCommand(invocation.args, io);
  }
  // Listening for the stop signals before loading, so one that arrives meanwhile still stops the command once started.
  const stopSignal = io.waitForStop();
  // The OpenTelemetry SDK is loaded only when tracing is enabled; the last spans are flushed after the command.
  let tracing: RunningTracing | undefined;
  try {
    tracing = await startTracing(loaded.config.tracing, invocation.command, logger);
  } catch (err) {
    logger.error({ err }, `start-up failed: tracing: ${(err as Error).message}`);
    return 1;
  }
  try {
    if (invocation.command === 'evaluator') {
      tuneYoungGeneration('small', process.execArgv, io.env.NODE_OPTIONS);
      // --workers wins over evaluator.workers from the file or the environment.
      const config = invocation.workers === undefined ? loaded.config : { ...loaded.config, evaluator: { ...loaded.config.evaluator, workers: invocation.workers } };
      const workers = cluster.isPrimary ? workerCountOf(config.evaluator.workers) : 1;
      if (workers > 1 && config.nats.url !== '') {
        // The primary of several workers loads none of what evaluates: it only forks and watches them.
        const { evaluatorPrimary } = await import('./evaluator-cluster/evaluator-primary.js');
        return await evaluatorPrimary(config, logger, stopSignal, workers);
      }
      const { evaluatorCommand } = await import('./commands/evaluator.command.js');
      return await evaluatorCommand(config, logger, stopSignal, (line) => io.stderr(`${line}\n`));
    }
    tuneYoungGeneration('regrow-at-once', process.execArgv, io.env.NODE_OPTIONS);
    const { serverCommand } = await import('./commands/server.command.js');
    return await serverCommand(loaded.config, logger, stopSignal, embedded);
  } finally {
    await tracing?.shutdown();
  }
}
