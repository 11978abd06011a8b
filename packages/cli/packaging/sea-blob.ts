/** Node's single-executable preparation blob: the bundle plus every embedded asset. */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SeaBlobOptions {
  /** The bundled main script. */
  main: string;
  /** Asset name → file path. */
  assets: Record<string, string>;
  workDir: string;
  /** The Node that builds the blob must be the Node the executable is made from. */
  node: string;
  /** V8's code cache of the bundle, for a faster start (only when building for this machine's architecture). */
  useCodeCache: boolean;
}

/** Writes the SEA configuration and runs `node --experimental-sea-config`; returns the blob's path. */
export function buildSeaBlob(options: SeaBlobOptions): string {
  const output = join(options.workDir, 'sea-prep.blob');
  const config = join(options.workDir, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({ main: options.main, output, disableExperimentalSEAWarning: true, useCodeCache: options.useCodeCache, useSnapshot: false, assets: options.assets }, null, 2),
  );
  // Node reports success on stderr; its output matters only when it fails (and then is in the thrown error).
  execFileSync(options.node, ['--experimental-sea-config', config], { stdio: 'pipe' });
  return output;
}
