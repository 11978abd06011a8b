/**
 * `ensign import`: Flipt documents into namespaces, in the database or through a running server;
 * or the namespaces of another server (`--from`) into the database, keeping their creation times.
 */
import { readFile } from 'node:fs/promises';
import { previewImport, READ_ONLY_MESSAGE } from '@ensign/control-plane';
import { decodeFliptDocuments, encodeFliptDocument, type FliptDocument } from '@ensign/core';
import type { EnsignConfig } from '../config/config.schema.js';
import { openConfiguredStore } from '../database.js';
import { isReadOnly } from '../declarative-storage.js';
import type { EmbeddedResources } from '../embedded.js';
import type { ImportArgs, ImportSource } from '../transfer-flags.js';
import { formatOf, parseDocuments } from './document-format.js';
import { describeOutcome, explainRefusal, type ImportOutcome } from './import-outcome.js';
import { readDocuments, remoteSource } from './namespace-source.js';
import { RemoteApi } from './remote-api.js';
import { remoteImport } from './remote-import.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The namespaces of `--from`, checked as a file's documents are (through the format and back),
 * each keeping when its flags and segments were created, as the server reports it.
 */
async function sourceDocuments(source: ImportSource): Promise<FliptDocument[]> {
  const read = await readDocuments(remoteSource(new RemoteApi(source.server)), source.namespaces);
  const checked = decodeFliptDocuments(read.map((doc) => encodeFliptDocument(doc)), { source: source.server.address });
  return checked.map((doc, i) => ({ ...doc, ...(read[i]?.createdAt === undefined ? {} : { createdAt: read[i].createdAt }) }));
}

/** The documents of the file or stdin. */
async function inputDocuments(args: ImportArgs, stdin: NodeJS.ReadableStream): Promise<FliptDocument[]> {
  const text = args.file === undefined ? await readAll(stdin) : await readFile(args.file, 'utf8');
  return decodeFliptDocuments(parseDocuments(text, formatOf(args.file)), args.file === undefined ? {} : { source: args.file });
}

/**
 * The documents of one namespace as one: its flags and segments in input order, the first of a
 * key kept (the store imports the later ones of a key only to skip them).
 */
function merged(docs: readonly FliptDocument[]): FliptDocument {
  const firstOfEachKey = <T extends { key: string }>(items: readonly T[]): T[] => {
    const byKey = new Map<string, T>();
    for (const item of items) if (!byKey.has(item.key)) byKey.set(item.key, item);
    return [...byKey.values()];
  };
  const [head] = docs as [FliptDocument, ...FliptDocument[]];
  return { ...head, flags: firstOfEachKey(docs.flatMap((doc) => doc.flags)), segments: firstOfEachKey(docs.flatMap((doc) => doc.segments)) };
}

/**
 * Into the configured database, migrated first as Flipt's import does. What each namespace held
 * before is read first, so the outcome tells created, updated, unchanged and deleted keys apart
 * as the import route does.
 */
async function importIntoDatabase(config: EnsignConfig, docs: readonly FliptDocument[], args: ImportArgs, embedded: EmbeddedResources): Promise<ImportOutcome[]> {
  const store = await openConfiguredStore(config, { embedded });
  try {
    await store.migrate();
    const options = { drop: args.drop, skipExisting: args.skipExisting };
    const before = new Map<string, FliptDocument | undefined>();
    for (const doc of docs) if (!before.has(doc.namespace.key)) before.set(doc.namespace.key, await store.documents.exportNamespace(doc.namespace.key));
    const summary = await store.documents.importDocuments(docs, options);
    return summary.namespaces.map((result) => {
      // The import went in, so no key it kept was a conflict: skipping is what the store did with it.
      const preview = previewImport(result.namespaceKey, before.get(result.namespaceKey), merged(docs.filter((doc) => doc.namespace.key === result.namespaceKey)), { drop: args.drop, skipExisting: true });
      return { namespaceKey: result.namespaceKey, revision: result.revision, createdNamespace: result.createdNamespace, flags: preview.flags, segments: preview.segments };
    });
  } finally {
    await store.close();
  }
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
    const docs = args.source === undefined ? await inputDocuments(args, stdin) : await sourceDocuments(args.source);
    if (docs.length === 0) {
      io.stdout('nothing imported: the input holds no documents\n');
      return 0;
    }
    const results = args.remote === undefined ? await importIntoDatabase(config, docs, args, embedded) : await remoteImport(new RemoteApi(args.remote), docs, args);
    for (const result of results) io.stdout(`${describeOutcome(result)}\n`);
    return 0;
  } catch (err) {
    io.stderr(`ensign: import failed: ${explainRefusal((err as Error).message)}\n`);
    return 1;
  }
}
