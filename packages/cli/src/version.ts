/** Version, commit and build date of this executable, for `ensign --version`. */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A bundler sets these at build time (esbuild `--define:__ENSIGN_COMMIT__='"abc123"'`); the
// TypeScript build leaves them undefined, and the fallbacks below apply.
declare const __ENSIGN_VERSION__: string | undefined;
declare const __ENSIGN_COMMIT__: string | undefined;
declare const __ENSIGN_BUILD_DATE__: string | undefined;

/** What `--version` prints. */
export interface BuildInfo {
  version: string;
  commit: string;
  buildDate: string;
}

const defined = (read: () => string | undefined): string | undefined => {
  try {
    return read();
  } catch {
    return undefined;
  }
};

const packageVersion = (): string => {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return manifest.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
};

// The compiled file's modification time is when `tsc` last built it.
const compiledAt = (): string => {
  try {
    return statSync(fileURLToPath(import.meta.url)).mtime.toISOString();
  } catch {
    return 'unknown';
  }
};

/** Reads the build information; `commit` is `dev` unless the build stamped one in. */
export function buildInfo(): BuildInfo {
  return {
    version: defined(() => __ENSIGN_VERSION__) ?? packageVersion(),
    commit: defined(() => __ENSIGN_COMMIT__) ?? 'dev',
    buildDate: defined(() => __ENSIGN_BUILD_DATE__) ?? compiledAt(),
  };
}
