/** `ensign export`: namespaces as Flipt documents, from the database or a running server. */
import { writeFileSync } from 'node:fs';
import type { FliptDocument } from '@ensign/core';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import type { EmbeddedResources } from '../embedded.js';
import type { ExportArgs } from '../transfer-flags.js';
import { buildInfo } from '../version.js';
import { exportHeader, formatOf, renderDocuments } from './document-format.js';
import { RemoteApi } from './remote-api.js';
import { type NamespaceSource, readDocuments, remoteSource } from './namespace-source.js';

async function databaseSource(config: EnsignConfig, embedded: EmbeddedResources): Promise<NamespaceSource> {
  const store = await openConfiguredStore(config, { embedded });
  try {
    // An export reads; it leaves migrating to `ensign migrate` and only refuses a schema behind.
    await store.ping();
  } catch (err) {
    await store.close();
    throw err;
  }
  return { namespaceKeys: () => store.documents.namespaceKeys(), exportNamespace: (key) => store.documents.exportNamespace(key), close: () => store.close() };
}

/** Writes the documents to `args.output` (a YAML file with Flipt's header line) or stdout; 1 with one line on stderr when it cannot. */
export async function exportCommand(
  config: EnsignConfig,
  args: ExportArgs,
  io: { stdout(text: string): void; stderr(text: string): void },
  embedded: EmbeddedResources = {},
): Promise<number> {
  try {
    const source = args.remote === undefined ? await databaseSource(config, embedded) : remoteSource(new RemoteApi(args.remote));
    let docs: FliptDocument[];
    try {
      docs = await readDocuments(source, args.namespaces, args.sortByKey);
    } finally {
      await source.close();
    }
    const format = formatOf(args.output);
    const text = renderDocuments(docs, format, args.sortByKey);
    if (args.output === undefined) io.stdout(text);
    // JSON has no comments: a `.json` file holds the documents alone.
    else writeFileSync(args.output, (format === 'yaml' ? exportHeader(buildInfo().version, new Date()) : '') + text);
    return 0;
  } catch (err) {
    io.stderr(`ensign: export failed: ${(err as Error).message}\n`);
    return 1;
  }
}
