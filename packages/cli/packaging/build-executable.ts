/**
 * `npm run package`: builds `dist/ensign-linux-<arch>`, one file that runs `ensign` on a machine
 * without Node or npm. It holds Node itself, the esbuild bundle of the CLI with every package and
 * migration, the gRPC protos (as a descriptor), the built web UI and the better-sqlite3 addon.
 *
 * Run after `npm run build` (which `npm run package` does first).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { protoDescriptor } from '@ensign/grpc';
import { type EmbeddedManifest, MANIFEST_ASSET, PROTOS_ASSET, SQLITE_ADDON_ASSET, uiAsset } from '../src/sea/asset-names.js';
import { readUiFiles } from '../src/ui-files.js';
import { bundleCli } from './bundle.js';
import { injectBlob } from './inject.js';
import { buildSeaBlob } from './sea-blob.js';
import { type Arch, resolveTarget } from './target.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** The commit being built, or `unknown` outside a git checkout. */
function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** `--arch x64|arm64`; this machine's architecture by default. */
function targetArch(argv: readonly string[]): Arch {
  const at = argv.indexOf('--arch');
  const arch = at < 0 ? process.arch : argv[at + 1];
  if (arch !== 'x64' && arch !== 'arm64') throw new Error(`--arch must be x64 or arm64 (got ${String(arch)})`);
  return arch;
}

async function main(): Promise<void> {
  const started = Date.now();
  const arch = targetArch(process.argv.slice(2));
  const target = resolveTarget(arch, join(root, 'dist', 'toolchain'));
  const output = join(root, 'dist', `ensign-linux-${arch}`);
  const work = join(root, 'dist', `sea-${arch}`);
  rmSync(work, { recursive: true, force: true });

  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const bundle = join(work, 'ensign.cjs');
  const warnings = await bundleCli({ entry: join(root, 'packages/cli/dist/src/sea/sea-main.js'), outfile: bundle, version, commit: gitCommit(), buildDate: new Date().toISOString() });
  for (const warning of warnings) console.warn(`bundle warning: ${warning}`);

  const assets: Record<string, string> = {};
  const addAsset = (name: string, bytes: Buffer | string): void => {
    const path = join(work, 'assets', name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    assets[name] = path;
  };

  const ui = readUiFiles(join(root, 'packages/ui/dist/web'));
  if (!ui.some((file) => file.path === '/index.html')) throw new Error('packages/ui/dist/web has no index.html: run `npm run build` first');
  for (const file of ui) addAsset(uiAsset(file.path), file.body);
  addAsset(PROTOS_ASSET, JSON.stringify(protoDescriptor()));
  const addon = readFileSync(target.addon);
  addAsset(SQLITE_ADDON_ASSET, addon);
  const manifest: EmbeddedManifest = { ui: ui.map((file) => file.path), sqliteAddonSha256: sha256(addon) };
  addAsset(MANIFEST_ASSET, JSON.stringify(manifest));

  // The blob is made by this machine's Node (of the same version); only a native target gets V8's code cache.
  const blob = buildSeaBlob({ main: bundle, assets, workDir: work, node: process.execPath, useCodeCache: target.native });
  const stripped = await injectBlob({ node: target.node, blob, output, stripTool: target.stripTool });

  const size = (path: string): number => statSync(path).size;
  console.log(`${output}`);
  console.log(`  size          ${mib(size(output))} (Node ${process.version} linux-${arch} ${stripped ? 'stripped' : `not stripped: no ${target.stripTool}`}, ${mib(size(target.node))} as shipped)`);
  console.log(`  bundle        ${mib(size(bundle))} (minified CLI with every package)`);
  console.log(`  web UI        ${mib(ui.reduce((sum, file) => sum + file.body.length, 0))} in ${ui.length} files`);
  console.log(`  SQLite addon  ${mib(addon.length)}`);
  console.log(`  SEA blob      ${mib(size(blob))} (bundle and assets${target.native ? ", with V8's code cache" : ''})`);
  console.log(`  built in      ${((Date.now() - started) / 1000).toFixed(1)} s`);
  rmSync(work, { recursive: true, force: true });
}

await main();
