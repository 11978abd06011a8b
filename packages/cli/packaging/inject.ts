/** Makes the executable: a copy of the Node binary, stripped of its debug symbols, with the SEA blob injected. */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, rmSync } from 'node:fs';
import { inject } from 'postject';

/** The fuse Node checks to know it carries a SEA blob. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Whether `strip` (binutils) can shrink the copy; without it the executable keeps Node's symbols. */
function strip(path: string, stripTool: string): boolean {
  try {
    execFileSync(stripTool, ['--strip-all', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** LIEF, inside postject, warns once for each ELF note section it cannot name; Node's notes are intact. */
async function withoutNoteWarnings<T>(work: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!/^warning: Can't find string offset for section name/.test(String(args[0]))) warn(...args);
  };
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
}

export interface InjectOptions {
  node: string;
  blob: string;
  output: string;
  /** `strip`, or the cross toolchain's (`aarch64-linux-gnu-strip`). */
  stripTool: string;
}

/** Writes the executable; resolves whether it was stripped. */
export async function injectBlob(options: InjectOptions): Promise<boolean> {
  rmSync(options.output, { force: true });
  copyFileSync(options.node, options.output);
  chmodSync(options.output, 0o755);
  const stripped = strip(options.output, options.stripTool);
  await withoutNoteWarnings(() => inject(options.output, 'NODE_SEA_BLOB', readFileSync(options.blob), { sentinelFuse: SEA_FUSE }));
  return stripped;
}
