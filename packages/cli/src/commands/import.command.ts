/** `ensign import`: Flipt documents into namespaces, in the database or through a running server. */
import { readFile } from 'node:fs/promises';
import { READ_ONLY_MESSAGE } from '@ensign/control-plane';
import { decodeFliptDocuments, type FliptDocument } from '@ensign/core';
import type { NamespaceImport } from '@ensign/store';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import { isReadOnly } from '../declarative-storage.js';
import type { EmbeddedResources } from '../embedded.js';
import type { ImportArgs } from '../transfer-flags.js';
import { formatOf, parseDocuments } from './document-format.js';
import { RemoteApi } from './remote-api.js';
import { remoteImport } from './remote-import.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Into the configured database, migrated first as Flipt's import does. */
async function importIntoDatabase(config: EnsignConfig, docs: readonly FliptDocument[], args: ImportArgs, embedded: EmbeddedResources): Promise<NamespaceImport[]> {
  const store = await openConfiguredStore(config, { embedded });
  try {
    await store.migrate();
    return (await store.documents.importDocuments(docs, { drop: args.drop, skipExisting: args.skipExisting })).namespaces;
  } finally {
    await store.close();
  }
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** `imported namespace "prod" (revision 4): 3 flags, 1 segment; skipped 1 flag; removed 2 segments`. */
function describe(result: NamespaceImport): string {
  const parts = [`${plural(result.flags.imported, 'flag')}, ${plural(result.segments.imported, 'segment')}`];
  for (const kind of ['skipped', 'removed'] as const) {
    const flags = result.flags[kind];
    const segments = result.segments[kind];
    if (flags + segments > 0) parts.push(`${kind} ${[flags > 0 ? plural(flags, 'flag') : '', segments > 0 ? plural(segments, 'segment') : ''].filter(Boolean).join(', ')}`);
  }
  const created = result.createdNamespace ? 'created and ' : '';
  const revision = result.revision > 0 ? ` (revision ${result.revision})` : '';
  return `${created}imported namespace "${result.namespaceKey}"${revision}: ${parts.join('; ')}`;
}

/**
 * Reads, decodes and checks every document, then imports them; one line per namespace on stdout.
 * A bad document or a refused import is 1 with one line on stderr, and nothing written.
 */
export async function importCommand(
  config: EnsignConfig,
  args: ImportArgs,
  io: { stdout(text: string): void; stderr(text: string): void },
  embedded: EmbeddedResources = {},
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  // COMPAT(flipt): flags served from files (or a read-only database) are not written by an import.
  if (args.remote === undefined && isReadOnly(config)) {
    io.stderr(`ensign: import failed: ${READ_ONLY_MESSAGE} (storage.type is ${config.storage.type})\n`);
    return 1;
  }
  try {
    const text = args.file === undefined ? await readAll(stdin) : await readFile(args.file, 'utf8');
    const docs = decodeFliptDocuments(parseDocuments(text, formatOf(args.file)), args.file === undefined ? {} : { source: args.file });
    if (docs.length === 0) {
      io.stdout('nothing imported: the input holds no documents\n');
      return 0;
    }
    const results = args.remote === undefined ? await importIntoDatabase(config, docs, args, embedded) : await remoteImport(new RemoteApi(args.remote), docs, args);
    for (const result of results) io.stdout(`${describe(result)}\n`);
    return 0;
  } catch (err) {
    io.stderr(`ensign: import failed: ${(err as Error).message}\n`);
    return 1;
  }
}
