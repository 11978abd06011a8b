#!/usr/bin/env node
/**
 * Builds the web UI (`vite build packages/ui`) unless its last build is newer than everything it is
 * built from: the UI's sources, page, public files and configuration, the compiled `@ensign/core`
 * it bundles, and the installed dependencies (package-lock.json). Directories count too, so a
 * deleted or renamed file also rebuilds. `--force` builds regardless; `--root <dir>` takes another
 * checkout's UI (the repository this script is in by default).
 *
 * The stamp (packages/ui/dist/web.stamp) is written after a build succeeds and dated when the
 * build started, so a file saved while Vite was reading it is still newer than the build.
 */
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const rootAt = process.argv.indexOf('--root');
const root = rootAt === -1 ? fileURLToPath(new URL('..', import.meta.url)) : process.argv[rootAt + 1];
if (root === undefined) throw new Error('--root needs a directory');
const ui = join(root, 'packages/ui');
const output = join(ui, 'dist/web/index.html');
const stamp = join(ui, 'dist/web.stamp');

/** Everything the bundle is made from. */
const INPUTS = [
  'packages/ui/index.html',
  'packages/ui/vite.config.ts',
  'packages/ui/package.json',
  'packages/ui/tsconfig.json',
  'packages/ui/src',
  'packages/ui/public',
  'packages/core/package.json',
  'packages/core/dist/src',
  'tsconfig.base.json',
  'package-lock.json',
];

/** The newest modification time (ms) of `path` and, for a directory, of everything under it. */
function newest(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    // Missing input (e.g. core not compiled yet): Vite will say what is wrong.
    return Number.POSITIVE_INFINITY;
  }
  let latest = stats.mtimeMs;
  if (stats.isDirectory()) for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function upToDate() {
  if (!existsSync(output) || !existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return INPUTS.every((input) => newest(join(root, input)) < built);
}

if (!process.argv.includes('--force') && upToDate()) process.exit(0);

const started = new Date();
rmSync(stamp, { force: true });
const { build } = await import('vite');
await build({ root: ui, logLevel: 'warn' });
writeFileSync(stamp, `built from the sources listed in tools/build-ui.mjs, started ${started.toISOString()}\n`);
utimesSync(stamp, started, started);
