/**
 * The entry point of the single-file executable: it hands what the executable embeds (the gRPC
 * protos, the web UI, the SQLite addon) to the same `ensign` that `npm start` runs.
 */
import cluster from 'node:cluster';
import { getAsset, isSea } from 'node:sea';
import { useProtoDescriptor } from '@ensign/grpc/evaluation';
import type { EmbeddedResources } from '../embedded.js';
import { runProcess } from '../process-main.js';
import { type EmbeddedManifest, MANIFEST_ASSET, PROTOS_ASSET, SQLITE_ADDON_ASSET, uiAsset } from './asset-names.js';
import { cacheDirectory, loadAddon, materialiseAddon } from './native-addon.js';

function embeddedResources(): EmbeddedResources {
  const manifest = JSON.parse(getAsset(MANIFEST_ASSET, 'utf8')) as EmbeddedManifest;
  useProtoDescriptor(JSON.parse(getAsset(PROTOS_ASSET, 'utf8')));
  return {
    ui: manifest.ui.map((path) => ({ path, body: Buffer.from(getAsset(uiAsset(path))) })),
    sqliteAddon: () => loadAddon(materialiseAddon(new Uint8Array(getAsset(SQLITE_ADDON_ASSET)), manifest.sqliteAddonSha256, cacheDirectory(process.env))),
  };
}

if (!isSea()) {
  process.stderr.write('ensign: this entry point runs only inside the single-file executable\n');
  process.exitCode = 1;
} else {
  const fail = (err: unknown): void => {
    process.stderr.write(`ensign: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  };
  try {
    // node:cluster starts a worker as `<executable> <entry> <arguments…>`, its entry being the
    // executable again, which the executable (unlike node) hands on as the first argument.
    runProcess(embeddedResources(), cluster.isWorker ? 3 : 2).catch(fail);
  } catch (err) {
    fail(err);
  }
}
