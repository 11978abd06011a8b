/**
 * The single-file executable's SQLite addon cache: written once under its hash, reused while the
 * file still has that hash, replaced when it does not, and refused when the embedded bytes
 * themselves are damaged. The cache folder follows XDG, then the home directory.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '@ensign/testkit';
import test from 'ava';
import { cacheDirectory, loadAddon, materialiseAddon } from '../src/sea/native-addon.js';

const bytes = Buffer.from('pretend this is an ELF shared object');
const sha = createHash('sha256').update(bytes).digest('hex');

test('the addon is written once, under a name from its hash, readable only by its owner', (t) => {
  const dir = join(scratchDir(), 'cache', 'ensign');
  const path = materialiseAddon(bytes, sha, dir);
  t.is(path, join(dir, `better_sqlite3-${sha.slice(0, 16)}.node`));
  t.true(readFileSync(path).equals(bytes));
  t.is(statSync(dir).mode & 0o777, 0o700);
  t.is(statSync(path).mode & 0o777, 0o500);
  const written = statSync(path).mtimeMs;
  t.is(materialiseAddon(bytes, sha, dir), path);
  t.is(statSync(path).mtimeMs, written, 'a file with the right hash is reused, not rewritten');
});

test('a cached file whose content no longer has the hash is replaced', (t) => {
  const dir = scratchDir();
  const path = materialiseAddon(bytes, sha, dir);
  writeFileSync(path, 'truncated', { mode: 0o600 });
  t.is(materialiseAddon(bytes, sha, dir), path);
  t.true(readFileSync(path).equals(bytes));
});

test('embedded bytes that do not match their recorded hash are refused before anything is written', (t) => {
  const dir = join(scratchDir(), 'never-created');
  t.throws(() => materialiseAddon(Buffer.from('damaged'), sha, dir), { message: 'the embedded SQLite addon is damaged (its hash does not match)' });
  t.throws(() => statSync(dir));
});

test('a file that is not an addon fails to load with the loader\'s error', (t) => {
  const path = materialiseAddon(bytes, sha, scratchDir());
  t.throws(() => loadAddon(path));
});

test('the cache folder: $XDG_CACHE_HOME/ensign, else ~/.cache/ensign', (t) => {
  t.is(cacheDirectory({ XDG_CACHE_HOME: '/var/cache/me' }), '/var/cache/me/ensign');
  t.regex(cacheDirectory({}), /\/\.cache\/ensign$|\/ensign-\d+$/);
  t.regex(cacheDirectory({ XDG_CACHE_HOME: '' }), /\/\.cache\/ensign$|\/ensign-\d+$/);
});
