/**
 * What `@ensign/openfeature-web-provider` adds to a page: Vite (the repository's bundler) builds
 * minified ES modules of
 *   - the provider alone, `@openfeature/web-sdk` left as an import (what a site that already ships
 *     the SDK adds),
 *   - the provider with the whole web SDK (what a site without OpenFeature adds),
 *   - the web SDK alone (for comparison),
 * and reports each in bytes minified and minified + gzip (level 9).
 * Run: `npm run bench:web-bundle`; writes benchmarks/results/web-bundle.json.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { machineOf, writeResults } from '../engine/results-file.js';

const WEB_SDK = '@openfeature/web-sdk';
const PROVIDER = fileURLToPath(new URL('../../../packages/openfeature-web-provider/dist/src/index.js', import.meta.url));
const WEB_SDK_ENTRY = fileURLToPath(import.meta.resolve(WEB_SDK));

interface Size {
  bundle: string;
  minBytes: number;
  minGzipBytes: number;
}

/** The minified ES module of `entry` with what it imports, but `external`. */
async function minified(entry: string, external: string[]): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      modulePreload: false,
      rolldownOptions: { input: entry, external, preserveEntrySignatures: 'strict', output: { format: 'es', entryFileNames: 'bundle.js' } },
    },
  });
  const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item) => item.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`expected one chunk from ${entry}, got ${chunks.length}`);
  return chunks[0]!.code;
}

function sizeOf(bundle: string, code: string): Size {
  return { bundle, minBytes: Buffer.byteLength(code), minGzipBytes: gzipSync(code, { level: 9 }).length };
}

async function main(): Promise<void> {
  const load = loadavg();
  // A page that imports both: every export of the SDK kept, as an application using it keeps them.
  const dir = mkdtempSync(join(tmpdir(), 'ensign-web-bundle-'));
  const both = join(dir, 'provider-and-web-sdk.js');
  writeFileSync(both, `export * from ${JSON.stringify(WEB_SDK_ENTRY)};\nexport { EnsignWebProvider } from ${JSON.stringify(PROVIDER)};\n`);
  try {
    const sizes = [
      sizeOf('provider (web SDK external)', await minified(PROVIDER, [WEB_SDK])),
      sizeOf('provider + web SDK', await minified(both, [])),
      sizeOf('web SDK alone', await minified(WEB_SDK_ENTRY, [])),
    ];
    for (const size of sizes) console.log(`${size.bundle.padEnd(30)} ${String(size.minBytes).padStart(7)} B min  ${String(size.minGzipBytes).padStart(7)} B min+gzip`);
    console.log(`results: ${writeResults('web-bundle.json', { machine: machineOf(load), sizes })}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
