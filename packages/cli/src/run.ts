/** Runs one `ensign` invocation and resolves its exit code; `main.ts` binds it to the process. */
import { parseCommandLine } from './cli.js';
import { evaluatorCommand } from './commands/evaluator.command.js';
import { migrateCommand } from './commands/migrate.command.js';
import { serverCommand } from './commands/server.command.js';
import { ConfigError, type LoadedConfig, loadConfig } from './config/config.loader.js';
import type { EmbeddedResources } from './embedded.js';
import { createLogger } from './logger.js';
import { buildInfo } from './version.js';

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
  const logger = createLogger(loaded.config);
  for (const warning of loaded.warnings) logger.warn(warning);

  if (invocation.command === 'migrate') return migrateCommand(loaded.config, logger, (line) => io.stdout(`${line}\n`), embedded);
  if (invocation.command === 'evaluator') return evaluatorCommand(loaded.config, logger, io.waitForStop(), (line) => io.stderr(`${line}\n`));
  return serverCommand(loaded.config, logger, io.waitForStop(), embedded);
}
