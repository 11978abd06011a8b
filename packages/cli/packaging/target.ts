/**
 * What the executable is made from for a target architecture: the Node binary and the
 * better-sqlite3 addon built for it. For this machine's architecture they are the running Node and
 * the addon in node_modules; for another (arm64 on an x64 machine) they are the same Node version's
 * official binary from the npm registry (`node-linux-<arch>`) and the addon compiled with the GNU
 * cross toolchain, both kept under `dist/toolchain` for the next build.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The better-sqlite3 package in node_modules: its built addon, and its sources for a cross build. */
const betterSqliteDirectory = (): string => dirname(require.resolve('better-sqlite3/package.json'));

export type Arch = 'x64' | 'arm64';

/** The GNU cross toolchain's prefix for each target (Debian: g++-aarch64-linux-gnu, g++-x86-64-linux-gnu). */
const CROSS_PREFIX: Readonly<Record<Arch, string>> = { arm64: 'aarch64-linux-gnu-', x64: 'x86_64-linux-gnu-' };

export interface Target {
  arch: Arch;
  node: string;
  addon: string;
  /** The strip of the target's binutils. */
  stripTool: string;
  /** V8's code cache can only be made by a Node of the target's architecture. */
  native: boolean;
}

const run = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void => {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...options });
};

const hasCommand = (command: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** `node-linux-<arch>` of this Node's version, unpacked under `toolchain`; returns the package folder. */
function targetNodePackage(arch: Arch, toolchain: string): string {
  const version = process.version.slice(1);
  const folder = join(toolchain, `node-v${version}-linux-${arch}`);
  if (existsSync(join(folder, 'bin', 'node'))) return folder;
  mkdirSync(folder, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `node-linux-${arch}@${version}`, '--pack-destination', toolchain, '--silent'], { encoding: 'utf8' }).trim();
  run('tar', ['-xzf', join(toolchain, tarball), '-C', folder, '--strip-components=1']);
  rmSync(join(toolchain, tarball), { force: true });
  return folder;
}

/** node-gyp as npm runs it for install scripts (`npm_config_node_gyp`), else one on the PATH. */
function nodeGyp(): string[] {
  const bundled = process.env['npm_config_node_gyp'];
  if (bundled !== undefined && existsSync(bundled)) return [process.execPath, bundled];
  if (hasCommand('node-gyp')) return ['node-gyp'];
  throw new Error('node-gyp is needed to compile the SQLite addon for another architecture: run this through `npm run package`');
}

/** better-sqlite3 compiled for `arch` against that Node's headers; returns the addon's path. */
function crossCompiledAddon(arch: Arch, nodePackage: string, toolchain: string): string {
  const source = betterSqliteDirectory();
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string };
  const folder = join(toolchain, `better-sqlite3-${version}-node-${process.version}-linux-${arch}`);
  const addon = join(folder, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(addon)) return addon;
  const prefix = CROSS_PREFIX[arch];
  if (!hasCommand(`${prefix}g++`)) throw new Error(`${prefix}g++ is needed to compile the SQLite addon for ${arch} (Debian: apt-get install g++-${prefix.slice(0, -1)})`);
  rmSync(folder, { recursive: true, force: true });
  cpSync(source, folder, { recursive: true, filter: (path) => !path.startsWith(join(source, 'build')) });
  const [command = 'node-gyp', ...args] = nodeGyp();
  run(command, [...args, 'rebuild', '--release', `--arch=${arch}`, `--nodedir=${nodePackage}`], {
    cwd: folder,
    env: { ...process.env, CC: `${prefix}gcc`, CXX: `${prefix}g++`, LINK: `${prefix}g++`, AR: `${prefix}ar` },
  });
  return addon;
}

/** The inputs for `arch`, fetching and compiling what this machine does not have. */
export function resolveTarget(arch: Arch, toolchain: string): Target {
  if (arch === process.arch) {
    return {
      arch,
      node: process.execPath,
      addon: join(betterSqliteDirectory(), 'build', 'Release', 'better_sqlite3.node'),
      stripTool: 'strip',
      native: true,
    };
  }
  mkdirSync(toolchain, { recursive: true });
  const nodePackage = targetNodePackage(arch, toolchain);
  return { arch, node: join(nodePackage, 'bin', 'node'), addon: crossCompiledAddon(arch, nodePackage, toolchain), stripTool: `${CROSS_PREFIX[arch]}strip`, native: false };
}
