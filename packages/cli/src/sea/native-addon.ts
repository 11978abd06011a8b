/**
 * Loads the embedded better-sqlite3 addon. A native addon can only be loaded from a file, so it is
 * written once to a private cache directory under a name that is its hash; a file already there
 * is used only when its content still has that hash (a half-written or tampered file is replaced).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** `$XDG_CACHE_HOME/ensign`, else `~/.cache/ensign`, else a per-user folder in the temp directory. */
export function cacheDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg !== '') return join(xdg, 'ensign');
  try {
    const home = homedir();
    if (home !== '') return join(home, '.cache', 'ensign');
  } catch {
    // No home directory (a service account without one): fall through.
  }
  return join(tmpdir(), `ensign-${process.getuid?.() ?? 'user'}`);
}

/** Writes `addon` (unless a file with its hash is already there) and returns the file's path. */
export function materialiseAddon(addon: Uint8Array, expectedSha256: string, directory: string): string {
  if (sha256(addon) !== expectedSha256) throw new Error('the embedded SQLite addon is damaged (its hash does not match)');
  const path = join(directory, `better_sqlite3-${expectedSha256.slice(0, 16)}.node`);
  if (existsSync(path) && sha256(readFileSync(path)) === expectedSha256) return path;
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // Written aside and renamed, so a concurrent start never loads a half-written file.
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, addon, { mode: 0o500 });
  renameSync(partial, path);
  return path;
}

/** Loads the addon at `path` and returns its exports, as `require` would. */
export function loadAddon(path: string): object {
  const module = { exports: {} as object };
  process.dlopen(module, path);
  return module.exports;
}
