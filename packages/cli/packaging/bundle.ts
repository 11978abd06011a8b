/** The esbuild bundle of `ensign` for the single-file executable: one CommonJS file (Node's SEA loads only that). */
import { build } from 'esbuild';
import { healthProtoPlugin } from './health-proto-plugin.js';

/**
 * Drivers that knex and pg name but Ensign never uses: they are not installed, and a `require` of
 * one fails only if that driver were chosen.
 */
const UNUSED_DRIVERS = ['pg-native', 'sqlite3', 'tedious', 'oracledb', 'mysql', 'mariadb', 'pg-query-stream'];

export interface BundleOptions {
  entry: string;
  outfile: string;
  version: string;
  commit: string;
  buildDate: string;
}

/** Bundles `entry` and what it imports; returns the warnings esbuild reported. */
export async function bundleCli(options: BundleOptions): Promise<string[]> {
  const result = await build({
    entryPoints: [options.entry],
    outfile: options.outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    // Class and function names stay: they appear in logged errors.
    keepNames: true,
    legalComments: 'eof',
    external: UNUSED_DRIVERS,
    plugins: [healthProtoPlugin()],
    define: {
      __ENSIGN_VERSION__: JSON.stringify(options.version),
      __ENSIGN_COMMIT__: JSON.stringify(options.commit),
      __ENSIGN_BUILD_DATE__: JSON.stringify(options.buildDate),
    },
    // `import.meta.url` is only read where the embedded resources replace it (the protos folder,
    // node_modules, package.json), each behind a fallback.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'silent',
  });
  return result.warnings.map((w) => `${w.location?.file ?? ''}:${w.location?.line ?? ''} ${w.text}`);
}
