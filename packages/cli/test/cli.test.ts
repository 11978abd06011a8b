import test from 'ava';
import { COMMANDS, commandHelp, parseCommandLine, rootHelp } from '../src/cli.js';
import { envName, SETTINGS } from '../src/config/config.schema.js';

test('a command with --config runs with that file', (t) => {
  t.deepEqual(parseCommandLine(['server', '--config', 'ensign.yml']), { kind: 'run', command: 'server', configPath: 'ensign.yml' });
  t.deepEqual(parseCommandLine(['migrate', '-c', 'x.yml']), { kind: 'run', command: 'migrate', configPath: 'x.yml' });
  t.deepEqual(parseCommandLine(['--config=y.yml', 'server']), { kind: 'run', command: 'server', configPath: 'y.yml' });
  t.deepEqual(parseCommandLine(['migrate']), { kind: 'run', command: 'migrate', configPath: undefined });
});

test('--version and -v ask for the version', (t) => {
  t.deepEqual(parseCommandLine(['--version']), { kind: 'version' });
  t.deepEqual(parseCommandLine(['-v']), { kind: 'version' });
});

/** The message of a usage error; the usage that comes with it must list every command. */
const usageMessage = (argv: string[]): string => {
  const result = parseCommandLine(argv);
  if (result.kind !== 'usage-error') throw new Error(`expected a usage error for ${argv.join(' ')}, got ${result.kind}`);
  for (const command of COMMANDS) if (!result.usage.includes(command.name)) throw new Error(`usage does not list ${command.name}`);
  return result.message;
};

test('an unknown command, an unknown flag, a stray argument or no command is a usage error', (t) => {
  t.is(usageMessage(['serve']), 'unknown command "serve"');
  t.regex(usageMessage(['server', '--port', '80']), /Unknown option '--port'/);
  t.regex(usageMessage(['--verbose']), /Unknown option '--verbose'/);
  t.is(usageMessage(['server', 'now']), 'unexpected argument "now"');
  t.is(usageMessage([]), 'missing command');
  t.is(usageMessage(['--config', 'x.yml']), '--config needs a command');
  t.regex(usageMessage(['server', '--config']), /--config/);
});

test('--help shows the root help, <command> --help that command\'s help', (t) => {
  t.deepEqual(parseCommandLine(['--help']), { kind: 'help', text: rootHelp() });
  t.deepEqual(parseCommandLine(['-h']), { kind: 'help', text: rootHelp() });
  for (const command of COMMANDS) {
    t.deepEqual(parseCommandLine([command.name, '--help']), { kind: 'help', text: commandHelp(command) });
  }
});

test('the root help mentions every command, every flag and every configuration key with its environment variable', (t) => {
  const help = rootHelp();
  for (const name of ['server', 'migrate']) t.regex(help, new RegExp(`^  ${name} `, 'm'));
  for (const flag of ['--help', '--version', '--config']) t.true(help.includes(flag), flag);
  for (const setting of SETTINGS) {
    t.true(help.includes(setting.key), setting.key);
    t.true(help.includes(envName(setting.key)), envName(setting.key));
  }
});

test('each command\'s help describes its flags and every configuration key', (t) => {
  for (const command of COMMANDS) {
    const help = commandHelp(command);
    t.true(help.startsWith(`Usage: ensign ${command.name}`));
    t.true(help.includes('--config <path>'));
    t.true(help.includes('--help'));
    for (const setting of SETTINGS) t.true(help.includes(setting.key), `${command.name}: ${setting.key}`);
  }
});

test('the help shows each default as configured (durations Go-style)', (t) => {
  const help = rootHelp();
  t.regex(help, /^ {2}server\.shutdown_timeout +duration +default 30s +env ENSIGN_SERVER_SHUTDOWN_TIMEOUT$/m);
  t.regex(help, /^ {2}db\.url +string +default file:\.\/data\/ensign\.db +env ENSIGN_DB_URL$/m);
  t.regex(help, /^ {2}server\.http_port +integer +default 8080 +env ENSIGN_SERVER_HTTP_PORT$/m);
});
