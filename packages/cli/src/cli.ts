/** Command-line grammar of `ensign`: commands, flags, help texts and argument parsing. */
import { parseArgs } from 'node:util';
import { renderConfigText } from './config/config.reference.js';
import { EXPORT_FLAGS, exportArgs, type ExportArgs, type FlagSpec, IMPORT_FLAGS, importArgs, type ImportArgs } from './transfer-flags.js';
import { AUTHZ_FLAGS, type AuthzArgs, authzArgs } from './authz-flags.js';
import { CHANGE_REQUEST_FLAGS, type ChangeRequestArgs, changeRequestArgs } from './change-request-flags.js';
import { type WorkerSetting, workerCount } from './config/workers.kind.js';

/** A subcommand of `ensign`. */
export interface CommandSpec {
  name: CommandName;
  summary: string;
  description: string;
  /** What follows the command's name in its usage line. */
  usage?: string;
  /** Its own flags, besides --config and --help. */
  flags?: readonly FlagSpec[];
}

/** The names `ensign` accepts as its first argument. */
export type CommandName = 'server' | 'evaluator' | 'migrate' | 'export' | 'import' | 'authz' | 'change-request';

const CONFIG_FLAG: FlagSpec = {
  name: 'config',
  short: 'c',
  value: '<path>',
  doc: 'YAML configuration file (default: $ENSIGN_CONFIG)',
};
const HELP_FLAG: FlagSpec = { name: 'help', short: 'h', doc: 'Show help and exit' };
const VERSION_FLAG: FlagSpec = { name: 'version', short: 'v', doc: 'Print version, commit and build date and exit' };

const GLOBAL_FLAGS = [HELP_FLAG, VERSION_FLAG];
const WORKERS_FLAG: FlagSpec = { name: 'workers', value: '<n|auto>', doc: 'Evaluating processes on the ports (overrides evaluator.workers)' };
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
      'exits 2. With --workers N (or auto: one per CPU) N processes serve the same ports, each following the\n' +
      'bucket; one that dies is replaced.',
    usage: '[--workers <n|auto>] [--config <path>]',
    flags: [WORKERS_FLAG],
  },
  {
    name: 'migrate',
    summary: 'Apply pending database migrations and exit',
    description: 'Opens the database named by db.url, applies every pending migration, prints what was applied\n(or that the schema is up to date) and exits 0.',
  },
  {
    name: 'export',
    summary: 'Write namespaces as Flipt documents (YAML or JSON), as `flipt export` does',
    description:
      'Reads the namespaces from the database named by db.url (or from the server at --address) and writes\n' +
      'one Flipt document (version 1.4) per namespace to stdout or --output: YAML documents separated by ---,\n' +
      'or JSON values one per line when the output file ends in .json. Without a namespace flag it exports\n' +
      '`default`. Exits 1 with one line on stderr when a namespace does not exist or the database fails.',
    usage: '[-o <file>] [-n <key> | --namespaces <a,b> | --all-namespaces] [--sort-by-key] [-a <url> [-t <token>]] [--config <path>]',
    flags: EXPORT_FLAGS,
  },
  {
    name: 'import',
    summary: 'Load Flipt documents (an export) into namespaces, as `flipt import` does',
    description:
      'Reads Flipt documents (versions 1.0 to 1.4; .json files as JSON, anything else as YAML with --- between\n' +
      'documents) and writes each namespace in one change, creating namespaces that are missing. Every\n' +
      'document is checked before anything is written: a bad one exits 1 with one line on stderr naming the\n' +
      'document and the field. A key that already exists is refused unless --drop (the namespace\'s flags and\n' +
      'segments are replaced) or --skip-existing (existing keys are kept). Applies pending migrations first.\n' +
      'With --from it reads the namespaces of a running Flipt or Ensign instead (-n, --namespaces or\n' +
      '--all-namespaces; default: default) and keeps when each flag and segment was created there; documents\n' +
      'have no place for that time. A flag the import replaces (--drop) keeps the time its row had.',
    usage: '(<file> | --stdin | --from <url> [--from-token <token>] [-n <key> | --namespaces <a,b> | --all-namespaces]) [--drop] [--skip-existing] [-a <url> [-t <token>]] [--config <path>]',
    flags: IMPORT_FLAGS,
  },
  {
    name: 'authz',
    summary: 'Explain what a credential may do in each namespace (authorization)',
    description:
      'explain: asks the server at --address what the credential of --token may do, as its authorization\n' +
      'policy decides (GET /api/v1/permissions), and prints a row per namespace the credential may view: the\n' +
      'actions (create, read, update, delete) granted on the namespace, its flags and its segments, then on\n' +
      'tokens. Exits 1 with one line on stderr when the server refuses or cannot be reached.',
    usage: 'explain -a <url> [-t <token>] [-n <namespace>]',
    flags: AUTHZ_FLAGS,
  },
  {
    name: 'change-request',
    summary: 'List, show, approve and apply a namespace\'s change requests on a running server',
    description:
      'Talks to the server at --address as the credential of --token, in the namespace of --namespace:\n' +
      '  list                  one line per request: id, state, title, author, approvals (of those required)\n' +
      '  show <id>             the request, its changes and the diff they would make, and its events\n' +
      '  approve <id>          approves the request\'s current changes (with --digest, only if still those)\n' +
      '  apply <id>            applies an approved request now as one revision, or at --at\n' +
      'Exits 1 with the server\'s message on stderr when it refuses or cannot be reached.',
    usage: '(list [--state <s,…>] | show <id> | approve <id> [--digest <d>] | apply <id> [--at <RFC3339>]) -n <namespace> -a <url> [-t <token>] [--json]',
    flags: CHANGE_REQUEST_FLAGS,
  },
];

/** What the command line asks for. */
export type Invocation =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { kind: 'run'; command: 'server' | 'migrate'; configPath: string | undefined }
  | { kind: 'run'; command: 'evaluator'; configPath: string | undefined; workers: WorkerSetting | undefined }
  | { kind: 'run'; command: 'export'; configPath: string | undefined; args: ExportArgs }
  | { kind: 'run'; command: 'import'; configPath: string | undefined; args: ImportArgs }
  | { kind: 'run'; command: 'authz'; configPath: string | undefined; args: AuthzArgs }
  | { kind: 'run'; command: 'change-request'; configPath: string | undefined; args: ChangeRequestArgs }
  | { kind: 'usage-error'; message: string; usage: string };

const COMMAND_WIDTH = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
/** A command and its summary, as the command lists show it. */
const commandLine = (c: CommandSpec): string => `  ${c.name.padEnd(COMMAND_WIDTH)}${c.summary}`;

const flagLine = (flag: FlagSpec): string => {
  const head = `${flag.short === undefined ? '    ' : `-${flag.short}, `}--${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
  return `  ${head.padEnd(28)}  ${flag.doc}`;
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
    ...COMMANDS.map(commandLine),
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
    `Usage: ensign ${command.name} ${command.usage ?? '[--config <path>]'}`,
    '',
    command.description,
    '',
    'Flags:',
    ...(command.flags ?? []).map(flagLine),
    ...COMMAND_FLAGS.map(flagLine),
    '',
    configSection(),
    '',
  ].join('\n');
}

const shortUsage = (): string =>
  ['Usage: ensign <command> [flags]', '', 'Commands:', ...COMMANDS.map(commandLine), '', 'Run "ensign --help" for every flag and setting.', ''].join('\n');

const usageError = (message: string): Invocation => ({ kind: 'usage-error', message, usage: shortUsage() });

/** Every flag any command takes, for one strict parse; which command takes which is checked after. */
const ALL_FLAGS: readonly FlagSpec[] = [
  ...[CONFIG_FLAG, HELP_FLAG, VERSION_FLAG, WORKERS_FLAG],
  ...[...EXPORT_FLAGS, ...IMPORT_FLAGS, ...AUTHZ_FLAGS, ...CHANGE_REQUEST_FLAGS].filter((flag, i, all) => all.findIndex((f) => f.name === flag.name) === i),
];

const PARSE_OPTIONS = Object.fromEntries(
  ALL_FLAGS.map((f) => [f.name, { type: f.value ? 'string' : 'boolean', ...(f.short === undefined ? {} : { short: f.short }) }] as const),
);

/** The first flag given that the command does not take. */
function foreignFlag(values: Readonly<Record<string, unknown>>, command: CommandSpec | undefined): string | undefined {
  const own = new Set([...COMMAND_FLAGS, VERSION_FLAG, ...(command?.flags ?? [])].map((f) => f.name));
  return Object.keys(values).find((name) => values[name] !== undefined && !own.has(name));
}

/** Parses `argv` (without the node and script paths). */
export function parseCommandLine(argv: readonly string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: PARSE_OPTIONS });
  } catch (err) {
    return usageError((err as Error).message);
  }
  const values = parsed.values as Readonly<Record<string, string | boolean | undefined>>;
  const [name, ...extra] = parsed.positionals;
  const command = COMMANDS.find((c) => c.name === name);

  if (name !== undefined && command === undefined) return usageError(`unknown command "${name}"`);
  const foreign = foreignFlag(values, command);
  if (foreign !== undefined) return usageError(command ? `unknown flag --${foreign} for "ensign ${command.name}"` : 'missing command');
  if (command?.name !== 'import' && command?.name !== 'authz' && command?.name !== 'change-request' && extra.length > 0) return usageError(`unexpected argument "${extra[0]}"`);
  if (values.help) return { kind: 'help', text: command ? commandHelp(command) : rootHelp() };
  if (values.version) {
    return command ? usageError(`unknown flag --version for "ensign ${command.name}"`) : { kind: 'version' };
  }
  if (command === undefined) {
    return usageError(values.config !== undefined ? '--config needs a command' : 'missing command');
  }
  const configPath = typeof values.config === 'string' ? values.config : undefined;
  switch (command.name) {
    case 'export': {
      const args = exportArgs(values);
      return typeof args === 'string' ? usageError(args) : { kind: 'run', command: 'export', configPath, args };
    }
    case 'import': {
      const args = importArgs(values, extra);
      return typeof args === 'string' ? usageError(args) : { kind: 'run', command: 'import', configPath, args };
    }
    case 'authz': {
      const args = authzArgs(values, extra);
      return typeof args === 'string' ? usageError(args) : { kind: 'run', command: 'authz', configPath, args };
    }
    case 'change-request': {
      const args = changeRequestArgs(values, extra);
      return typeof args === 'string' ? usageError(args) : { kind: 'run', command: 'change-request', configPath, args };
    }
    case 'evaluator': {
      if (values.workers === undefined) return { kind: 'run', command: 'evaluator', configPath, workers: undefined };
      const workers = workerCount().parse(values.workers);
      return workers.ok ? { kind: 'run', command: 'evaluator', configPath, workers: workers.value } : usageError(`--workers: ${workers.reason} (got ${JSON.stringify(values.workers)})`);
    }
    default:
      return { kind: 'run', command: command.name, configPath };
  }
}
