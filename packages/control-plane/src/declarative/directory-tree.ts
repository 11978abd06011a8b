/** A directory on disk as a feature tree. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FeatureTree } from './feature-tree.js';

const isMissing = (err: unknown): boolean => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

/** Lists the files under `root` (symbolic links to files included, as Flipt's walk opens them). */
export function directoryTree(root: string): FeatureTree {
  const walk = async (dir: string, prefix: string, out: string[]): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      // A directory removed while walking is simply not there any more.
      if (prefix !== '' && isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), path, out);
      else if (entry.isFile()) out.push(path);
      else if (entry.isSymbolicLink()) {
        const target = await stat(join(dir, entry.name)).catch(() => undefined);
        if (target?.isFile()) out.push(path);
      }
    }
  };
  return {
    async paths() {
      const out: string[] = [];
      await walk(root, '', out);
      return out;
    },
    async read(path) {
      try {
        return await readFile(join(root, ...path.split('/')));
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },
  };
}
