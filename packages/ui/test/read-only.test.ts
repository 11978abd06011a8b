import test from 'ava';
import { fromFiles, lastSyncOf, readOnlyAdvice, readOnlyHeadline, refusedChange, shortCommit, storageOf, storageSource, WRITABLE } from '../src/lib/read-only.js';

const SHA = '3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39';

const git = storageOf({
  version: '0.1.0',
  storage: {
    type: 'git',
    readOnly: true,
    metadata: { repository: 'https://github.com/acme/flags.git', ref: 'main', directory: 'flags', commit: SHA, lastSync: '2026-05-10T11:57:31Z' },
  },
  analytics: { enabled: true },
});
const local = storageOf({ storage: { type: 'local', readOnly: true, metadata: { path: '/srv/flags', revision: '0123456789abcdef', lastSync: '2026-05-10T11:57:31Z' } } });
const settings = storageOf({ storage: { type: 'database', readOnly: true } });

test('/meta/info read defensively: anything missing or odd is a writable database', (t) => {
  for (const body of [undefined, null, '<!doctype html>', [], {}, { storage: null }, { storage: 'git' }, { version: '1.2.3' }]) t.deepEqual(storageOf(body), WRITABLE, JSON.stringify(body));
  t.deepEqual(storageOf({ storage: { type: 'database' } }), { type: 'database', readOnly: false, metadata: {} }, 'Flipt leaves out a false readOnly');
  t.false(storageOf({ storage: { type: 'database', readOnly: 'true' } }).readOnly, 'only a JSON true');
  t.deepEqual(storageOf({ storage: { type: 'local', readOnly: true, metadata: { path: '/x', revision: 7, lastError: '' } } }).metadata, { path: '/x' }, 'strings only, empty ones left out');
  t.true(git.readOnly);
  t.is(git.type, 'git');
});

test('a commit is quoted by its first 7 characters; anything else as is', (t) => {
  t.is(shortCommit(SHA), '3f1c2a9');
  t.is(shortCommit('ABCDEF0123'), 'ABCDEF0');
  t.is(shortCommit('1234567'), '1234567');
  t.is(shortCommit('v1.2.0'), 'v1.2.0');
});

test('the source: git repository @ ref (short commit), the directory, or the server settings', (t) => {
  t.is(storageSource(git), 'git repository https://github.com/acme/flags.git @ main (3f1c2a9), directory flags');
  t.is(storageSource(storageOf({ storage: { type: 'git', readOnly: true, metadata: { repository: 'git@github.com:acme/flags.git', ref: 'v2' } } })), 'git repository git@github.com:acme/flags.git @ v2', 'before the first sync: no commit');
  t.is(storageSource(storageOf({ storage: { type: 'git', readOnly: true } })), 'a git repository');
  t.is(storageSource(local), 'directory /srv/flags');
  t.is(storageSource(storageOf({ storage: { type: 'local', readOnly: true } })), 'a directory of feature files');
  t.is(storageSource(settings), "this server's settings");
  t.true(fromFiles(git));
  t.true(fromFiles(local));
  t.false(fromFiles(settings));
});

test('the headline, which is also the tooltip of every control that would write', (t) => {
  t.is(readOnlyHeadline(git), 'Read-only: flags are served from git repository https://github.com/acme/flags.git @ main (3f1c2a9), directory flags');
  t.is(readOnlyHeadline(local), 'Read-only: flags are served from directory /srv/flags');
  t.is(readOnlyHeadline(settings), "Read-only: this server's settings allow no changes");
  t.regex(readOnlyAdvice(git), /committing to the repository/);
  t.regex(readOnlyAdvice(local), /in the feature files/);
  t.regex(readOnlyAdvice(settings), /storage\.read_only/);
});

test('the last sync and the refused change', (t) => {
  t.is(lastSyncOf(git), '2026-05-10T11:57:31Z');
  t.is(lastSyncOf(settings), undefined);
  t.is(refusedChange(local), undefined);
  const failing = storageOf({ storage: { type: 'local', readOnly: true, metadata: { path: '/srv/flags', lastError: 'shop.features.yml: flags[0].key: required' } } });
  t.is(refusedChange(failing), 'The latest change was refused: shop.features.yml: flags[0].key: required; still serving the previous state.');
});
