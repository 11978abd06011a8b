import test from 'ava';
import { COMMANDS, commandHelp, parseCommandLine } from '../src/cli.js';

const usageMessage = (argv: string[]): string => {
  const result = parseCommandLine(argv);
  if (result.kind !== 'usage-error') throw new Error(`expected a usage error for ${argv.join(' ')}, got ${result.kind}`);
  return result.message;
};

test('export: Flipt\'s flags; the default namespace when none is named', (t) => {
  t.deepEqual(parseCommandLine(['export']), {
    kind: 'run', command: 'export', configPath: undefined,
    args: { output: undefined, namespaces: ['default'], sortByKey: false, remote: undefined },
  });
  t.deepEqual(parseCommandLine(['export', '-o', 'out.yml', '--namespaces', 'prod, staging', '--sort-by-key', '-c', 'e.yml']), {
    kind: 'run', command: 'export', configPath: 'e.yml',
    args: { output: 'out.yml', namespaces: ['prod', 'staging'], sortByKey: true, remote: undefined },
  });
  t.like(parseCommandLine(['export', '-n', 'prod']), { args: { namespaces: ['prod'] } });
  t.like(parseCommandLine(['export', '--all-namespaces', '-a', 'http://flipt:8080/', '-t', 'secret']), {
    args: { namespaces: 'all', remote: { address: 'http://flipt:8080', token: 'secret' } },
  });
});

test('import: a file or --stdin, --drop, --skip-existing, a server', (t) => {
  t.deepEqual(parseCommandLine(['import', 'features.yml']), {
    kind: 'run', command: 'import', configPath: undefined,
    args: { file: 'features.yml', drop: false, skipExisting: false, remote: undefined, source: undefined },
  });
  t.like(parseCommandLine(['import', '--stdin', '--drop', '--skip-existing', '--address', 'https://ensign.example.com']), {
    args: { file: undefined, drop: true, skipExisting: true, remote: { address: 'https://ensign.example.com', token: undefined } },
  });
});

test('import --from: a running server\'s namespaces (default unless named) into the database', (t) => {
  t.deepEqual(parseCommandLine(['import', '--from', 'http://flipt:8080/']), {
    kind: 'run', command: 'import', configPath: undefined,
    args: { file: undefined, drop: false, skipExisting: false, remote: undefined, source: { server: { address: 'http://flipt:8080', token: undefined }, namespaces: ['default'] } },
  });
  t.like(parseCommandLine(['import', '--from', 'https://flipt.example.com', '--from-token', 's3cret', '--all-namespaces', '--drop']), {
    args: { drop: true, source: { server: { address: 'https://flipt.example.com', token: 's3cret' }, namespaces: 'all' } },
  });
  t.like(parseCommandLine(['import', '--from', 'http://flipt:8080', '--namespaces', 'prod,staging']), { args: { source: { namespaces: ['prod', 'staging'] } } });
  t.is(usageMessage(['import', 'a.yml', '--from', 'http://flipt:8080']), 'give a file, --stdin or --from, not two of them');
  t.is(usageMessage(['import', '--stdin', '--from', 'http://flipt:8080']), 'give a file, --stdin or --from, not two of them');
  t.is(usageMessage(['import', '--from', 'http://flipt:8080', '-a', 'http://ensign:8080']), '--from imports into the database (db.url), not through --address');
  t.is(usageMessage(['import', '--from', 'flipt:8080']), '--from must be an http:// or https:// URL (got "flipt:8080")');
  t.is(usageMessage(['import', 'a.yml', '--from-token', 'x']), '--from-token needs --from');
  t.is(usageMessage(['import', 'a.yml', '-n', 'prod']), '--namespace needs --from (a file names its own namespaces)');
  t.is(usageMessage(['import', '--from', 'http://flipt:8080', '-n', 'a', '--all-namespaces']), '--namespace, --namespaces and --all-namespaces are mutually exclusive');
});

test('bad export and import command lines are usage errors naming the problem', (t) => {
  t.is(usageMessage(['export', '--all-namespaces', '--namespaces', 'a']), '--namespace, --namespaces and --all-namespaces are mutually exclusive');
  t.is(usageMessage(['export', '-n', 'a', '--namespaces', 'b']), '--namespace, --namespaces and --all-namespaces are mutually exclusive');
  t.is(usageMessage(['export', '--namespaces', 'a,,b']), 'a namespace key must not be empty');
  t.is(usageMessage(['export', 'prod']), 'unexpected argument "prod"');
  t.is(usageMessage(['export', '--drop']), 'unknown flag --drop for "ensign export"');
  t.is(usageMessage(['import']), 'import needs a file (or --stdin)');
  t.is(usageMessage(['import', 'a.yml', '--stdin']), 'give a file or --stdin, not both');
  t.is(usageMessage(['import', 'a.yml', 'b.yml']), 'unexpected argument "b.yml"');
  t.is(usageMessage(['import', 'a.yml', '--sort-by-key']), 'unknown flag --sort-by-key for "ensign import"');
  t.is(usageMessage(['import', 'a.yml', '-t', 'x']), '--token needs --address');
  t.is(usageMessage(['import', 'a.yml', '-a', 'flipt:8080']), '--address must be an http:// or https:// URL (got "flipt:8080")');
  t.is(usageMessage(['server', '--drop']), 'unknown flag --drop for "ensign server"');
  t.is(usageMessage(['--drop']), 'missing command');
});

test('export and import help list their own flags', (t) => {
  const help = (name: string) => commandHelp(COMMANDS.find((c) => c.name === name)!);
  t.regex(help('export'), /^Usage: ensign export \[-o <file>\]/);
  for (const flag of ['--output <file>', '--namespace <key>', '--namespaces <a,b>', '--all-namespaces', '--sort-by-key', '--address <url>', '--token <token>']) t.true(help('export').includes(flag), flag);
  for (const flag of ['--stdin', '--from <url>', '--from-token <token>', '--all-namespaces', '--drop', '--skip-existing', '--address <url>', '--config <path>']) t.true(help('import').includes(flag), flag);
  t.false(help('server').includes('--drop'));
});
