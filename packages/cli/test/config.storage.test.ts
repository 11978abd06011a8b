/** The `storage` section: Flipt's keys and checks, what Ensign refuses, and the source and access it builds. */
import test from 'ava';
import { GitSource, LocalSource } from '@ensign/control-plane';
import { loadConfig } from '../src/config/config.loader.js';
import { featureSourceOf, gitAccessOf, isReadOnly } from '../src/declarative-storage.js';
import { errorOf, fromYaml } from './helpers/config-load.js';

test('database storage by default: writable, no feature files; storage.read_only: true makes it read-only', (t) => {
  const { config } = loadConfig({ env: {} });
  t.is(config.storage.type, 'database');
  t.is(config.storage.read_only, undefined);
  t.false(isReadOnly(config));
  t.is(featureSourceOf(config), undefined);
  t.true(isReadOnly(fromYaml('storage:\n  read_only: true\n').config));
  t.false(isReadOnly(fromYaml('storage:\n  read_only: false\n').config));
});

test('local storage: a read-only source over the directory, polled every poll_interval', (t) => {
  const { config } = fromYaml('storage:\n  type: local\n  local:\n    path: /srv/flags\n    poll_interval: 2s\n');
  t.true(isReadOnly(config));
  const source = featureSourceOf(config);
  t.true(source instanceof LocalSource);
  t.deepEqual(source?.metadata, { path: '/srv/flags' });
  t.is(source?.pollIntervalMs, 2000);
  t.true(isReadOnly(loadConfig({ env: { ENSIGN_STORAGE_TYPE: 'local', ENSIGN_STORAGE_READ_ONLY: 'true' } }).config));
});

test('git storage: Flipt\'s defaults, the source\'s metadata never shows a password', (t) => {
  const { config } = fromYaml('storage:\n  type: git\n  git:\n    repository: https://bot:s3cret@git.example.com/flags.git\n    directory: prod\n');
  t.is(config.storage.git.ref, 'main');
  t.is(config.storage.git.poll_interval, 30_000);
  const source = featureSourceOf(config);
  t.true(source instanceof GitSource);
  t.deepEqual(source?.metadata, { repository: 'https://bot:***@git.example.com/flags.git', ref: 'main', directory: 'prod' });
});

test('git authentication: the first configured of basic, token and ssh, with Flipt\'s ssh user default', (t) => {
  const git = (yaml: string) => fromYaml(`storage:\n  type: git\n  git:\n    repository: https://git.example.com/flags.git\n${yaml}`).config.storage.git;
  t.deepEqual(gitAccessOf(git('    insecure_skip_tls: true\n    ca_cert_path: /etc/ca.pem\n')), { insecureSkipTls: true, caCertPath: '/etc/ca.pem' });
  t.deepEqual(gitAccessOf(git('    authentication:\n      basic: {username: bot, password: pw}\n      token: {access_token: tok}\n')).basic, { username: 'bot', password: 'pw' });
  t.deepEqual(gitAccessOf(git('    authentication:\n      token: {access_token: tok}\n')).token, { accessToken: 'tok' });
  t.deepEqual(gitAccessOf(git('    authentication:\n      ssh: {private_key_path: /keys/id, insecure_ignore_host_key: true}\n')).ssh, {
    user: 'git',
    password: '',
    privateKeyPath: '/keys/id',
    insecureIgnoreHostKey: true,
  });
  t.deepEqual(gitAccessOf(git('    ca_cert_bytes: PEM\n')).caCertBytes, 'PEM');
});

test('what Flipt refuses, with its messages, and what Ensign does not support', (t) => {
  const cases: Array<[string, string]> = [
    ['storage:\n  type: local\n  read_only: false\n', 'storage.read_only: setting read only mode is only supported with database storage'],
    ['storage:\n  type: git\n', 'storage.git.repository: git repository must be specified'],
    ['storage:\n  type: git\n  git: {repository: x, ref_type: semver}\n', 'storage.git.ref_type: semver is not supported; use static with a branch, tag or commit in storage.git.ref'],
    ['storage:\n  type: git\n  git: {repository: x, ca_cert_path: /a, ca_cert_bytes: b}\n', 'storage.git: please provide only one of ca_cert_path or ca_cert_bytes'],
    ['storage:\n  type: git\n  git: {repository: x, authentication: {basic: {username: bot}}}\n', 'storage.git.authentication.basic: both username and password need to be provided for basic auth'],
    ['storage:\n  type: git\n  git: {repository: x, authentication: {ssh: {password: p}}}\n', 'storage.git.authentication.ssh: please provide exclusively one of private_key_bytes or private_key_path'],
    ['storage:\n  type: git\n  git: {repository: x, authentication: {ssh: {private_key_path: /a, private_key_bytes: b}}}\n', 'storage.git.authentication.ssh: please provide exclusively one of private_key_bytes or private_key_path'],
    ['storage:\n  type: oci\n', 'storage.type: must be one of database, local, git (got "oci")'],
  ];
  for (const [yaml, message] of cases) t.is(errorOf(() => fromYaml(yaml)), message, yaml);
  t.notThrows(() => fromYaml('storage:\n  type: database\n  git: {ref_type: semver}\n'), 'git settings are only checked for git storage');
});
