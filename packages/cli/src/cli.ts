/** Command-line grammar of `ensign`: commands, flags, help texts and argument parsing. */
import { parseArgs } from 'node:util';
import { renderConfigText } from './config/config.reference.js';

/** A command-line flag, as parsed and as documented. */
interface FlagSpec {
  name: 'config' | 'help' | 'version';
  short: string;
  value?: string;
  doc: string;
}

/** A subcommand of `ensign`. */
export interface CommandSpec {
  name: CommandName;
  summary: string;
  description: string;
}

/** The names `ensign` accepts as its first argument. */
export type CommandName = 'server' | 'evaluator' | 'migrate';

const CONFIG_FLAG: FlagSpec = {
  name: 'config',
  short: 'c',
  value: '<path>',
  doc: 'YAML configuration file (default: $ENSIGN_CONFIG)',
};
const HELP_FLAG: FlagSpec = { name: 'help', short: 'h', doc: 'Show help and exit' };
const VERSION_FLAG: FlagSpec = { name: 'version', short: 'v', doc: 'Print version, commit and build date and exit' };

const GLOBAL_FLAGS = [HELP_FLAG, VERSION_FLAG];
const COMMAND_FLAGS = [CONFIG_FLAG, HELP_FLAG];

/** The commands, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'server',
    summary: 'Run the HTTP API server (applies pending database migrations first)',
    description:
      'Opens the database, applies pending migrations, loads every namespace into memory, and serves the\n' +
      'management API (/api/v1), evaluation (/evaluate/v1, OFREP, the client-side snapshot) and\n' +
      'GET /health on server.host:server.http_port. SIGTERM or SIGINT stops accepting connections, lets\n' +
      'in-flight requests finish (at most server.shutdown_timeout), closes the database and exits 0.\n' +
      'With nats.url set it also publishes every namespace\'s snapshot to the NATS bucket for `ensign evaluator`\n' +
      'processes, and every nats.reconcile_interval republishes what the bucket lacks.',
  },
  {
    name: 'evaluator',
    summary: 'Run a stateless evaluation server fed by NATS (needs nats.url)',
    description:
      'Follows the snapshot bucket nats.bucket on nats.url (every namespace, then each change), keeps at most\n' +
      'evaluator.max_namespaces compiled namespaces in memory, and serves evaluation (/evaluate/v1, OFREP, the\n' +
      'client-side snapshot) on server.host:server.http_port. It opens no database. GET /health answers 503\n' +
      'NOT_SERVING until the initial sync, then 200 SERVING with each namespace\'s revision and age. SIGTERM or\n' +
      'SIGINT lets in-flight requests finish (at most server.shutdown_timeout) and exits 0; without nats.url it\n' +
      'exits 2.',
  },
  {
    name: 'migrate',
    summary: 'Apply pending database migrations and exit',
    description: 'Opens the database named by db.url, applies every pending migration, prints what was applied\n(or that the schema is up to date) and exits 0.',
  },
];

/** What the command line asks for. */
export type Invocation =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { kind: 'run'; command: CommandName; configPath: string | undefined }
  | { kind: 'usage-error'; message: string; usage: string };

const flagLine = (flag: FlagSpec): string => {
  const head = `-${flag.short}, --${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
  return `  ${head.padEnd(24)}  ${flag.doc}`;
};

const configSection = (): string =>
  [
    'Configuration (defaults < YAML file < environment; a YAML string written as ${VAR} is read from the',
    'environment; durations are Go-style such as 30s, 5m, 1h30m, or milliseconds):',
    renderConfigText(),
  ].join('\n');

/** `ensign --help`. */
export function rootHelp(): string {
  return [
    'ensign: feature-flag service, wire-compatible with the Flipt v1 API',
    '',
    'Usage:',
    '  ensign <command> [flags]',
    '  ensign --version',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(10)}${c.summary}`),
    '',
    'Flags:',
    ...GLOBAL_FLAGS.map(flagLine),
    '',
    'Command flags (ensign <command> --help):',
    ...COMMAND_FLAGS.map(flagLine),
    '',
    configSection(),
    '',
  ].join('\n');
}

/** `ensign <command> --help`. */
export function commandHelp(command: CommandSpec): string {
  return [
    `Usage: ensign ${command.name} [--config <path>]`,
    '',
    command.description,
    '',
    'Flags:',
    ...COMMAND_FLAGS.map(flagLine),
    '',
    configSection(),
    '',
  ].join('\n');
}

const shortUsage = (): string =>
  ['Usage: ensign <command> [flags]', '', 'Commands:', ...COMMANDS.map((c) => `  ${c.name.padEnd(10)}${c.summary}`), '', 'Run "ensign --help" for every flag and setting.', ''].join('\n');

const usageError = (message: string): Invocation => ({ kind: 'usage-error', message, usage: shortUsage() });

/** Parses `argv` (without the node and script paths). */
export function parseCommandLine(argv: readonly string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        [CONFIG_FLAG, HELP_FLAG, VERSION_FLAG].map((f) => [f.name, { type: f.value ? 'string' : 'boolean', short: f.short }] as const),
      ),
    });
  } catch (err) {
    return usageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [name, ...extra] = positionals;
  const command = COMMANDS.find((c) => c.name === name);

  if (name !== undefined && command === undefined) return usageError(`unknown command "${name}"`);
  if (extra.length > 0) return usageError(`unexpected argument "${extra[0]}"`);
  if (values.help) return { kind: 'help', text: command ? commandHelp(command) : rootHelp() };
  if (values.version) {
    return command ? usageError(`unknown flag --version for "ensign ${command.name}"`) : { kind: 'version' };
  }
  if (command === undefined) {
    return usageError(values.config !== undefined ? '--config needs a command' : 'missing command');
  }
  const configPath = typeof values.config === 'string' ? values.config : undefined;
  return { kind: 'run', command: command.name, configPath };
}
