/** The web UI's built files (`@ensign/ui`'s `dist/web`), read once at start-up into memory. */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { createUiAssets, type UiAssets, type UiFile } from '@ensign/control-plane';
import type { Logger } from 'pino';

/** Where `npm run build` puts the UI, or undefined when the package is not installed. */
function builtUiDirectory(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@ensign/ui/package.json')), 'dist', 'web');
  } catch {
    return undefined;
  }
}

/** Every file below `root`, at its URL path. */
export function readUiFiles(root: string): UiFile[] {
  const files: UiFile[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.push({ path: `/${relative(root, path).split(sep).join('/')}`, body: readFileSync(path) });
  }
  return files;
}

/** The UI to serve (the embedded files when given), or undefined (with a warning) when it has not been built. */
export function loadUi(logger: Logger, embedded?: readonly UiFile[]): UiAssets | undefined {
  try {
    if (embedded !== undefined) return createUiAssets(embedded);
    const root = builtUiDirectory();
    if (root === undefined) throw new Error('@ensign/ui is not installed');
    return createUiAssets(readUiFiles(root));
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'the web UI is not built (run `npm run build`); serving the APIs only');
    return undefined;
  }
}
