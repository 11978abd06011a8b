/**
 * The web provider as a page loads it: two ES modules built by Vite (the repository's bundler),
 * the provider with `@openfeature/web-sdk` left as an import, and the web SDK itself, so the page
 * maps the SDK's name to one copy with an import map, as a site loading both from a CDN does.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repositoryRoot } from '@ensign/testkit';
import { build, type Rolldown } from 'vite';

export const WEB_SDK = '@openfeature/web-sdk';

/** The provider's build output (`tsc -b` writes it). */
const PROVIDER_ENTRY = join(repositoryRoot, 'packages/openfeature-web-provider/dist/src/index.js');

export interface WebBundles {
  provider: string;
  webSdk: string;
}

/** One ES module of `entry` and what it imports, but `external`; not minified, so a failing page reads plainly. */
async function bundle(entry: string, external: string[]): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      modulePreload: false,
      rolldownOptions: { input: entry, external, preserveEntrySignatures: 'strict', output: { format: 'es', entryFileNames: 'bundle.js' } },
    },
  });
  const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((output) => output.output).find((item) => item.type === 'chunk' && item.isEntry);
  if (chunk?.type !== 'chunk') throw new Error(`no bundle built from ${entry}`);
  return chunk.code;
}

export async function bundleWebProvider(): Promise<WebBundles> {
  const [provider, webSdk] = await Promise.all([bundle(PROVIDER_ENTRY, [WEB_SDK]), bundle(fileURLToPath(import.meta.resolve(WEB_SDK)), [])]);
  return { provider, webSdk };
}
