/**
 * A hydration's document as format 3 carries it: the document without its flags on the first line,
 * then one flag per line. A writer joins each flag's JSON, kept from the last time that flag was
 * written, instead of serialising the whole document; a reader parses one flag at a time, between
 * turns of the event loop, instead of the whole document in one block.
 */
import type { SnapshotDocument, SnapshotFlag } from '@ensign/snapshots';
import { EventLoopSlices } from '@ensign/snapshots';

/**
 * Each flag's JSON, by flag object. Versions share the flag objects that did not change and never
 * modify them, so a compaction serialises only the flags changed since the last one.
 */
const flagJson = new WeakMap<SnapshotFlag, string>();

function jsonOfFlag(flag: SnapshotFlag): string {
  let json = flagJson.get(flag);
  if (json === undefined) {
    json = JSON.stringify(flag);
    flagJson.set(flag, json);
  }
  return json;
}

/** The document as lines (`JSON.stringify` escapes every newline inside a value, so none splits a flag). */
export function documentLines(document: SnapshotDocument): Buffer {
  const { flags, ...rest } = document;
  const lines = new Array<string>(flags.length + 1);
  lines[0] = JSON.stringify(rest);
  for (let i = 0; i < flags.length; i++) lines[i + 1] = jsonOfFlag(flags[i] as SnapshotFlag);
  return Buffer.from(lines.join('\n'), 'utf8');
}

/** Thrown by `parseDocumentLines` for a payload that is not a document's lines. */
export class DocumentLinesError extends Error {
  override readonly name = 'DocumentLinesError';
}

/**
 * The document of `documentLines`, parsed a flag at a time in slices of the event loop. Each flag
 * must be a JSON object; what it holds is for the snapshot's checksum and compiler to judge.
 */
export async function parseDocumentLines(bytes: Buffer, slices = new EventLoopSlices()): Promise<SnapshotDocument> {
  const lines = bytes.toString('utf8').split('\n');
  const rest = parseObject(lines[0] as string, 'the first line');
  if ('flags' in rest) throw new DocumentLinesError('the first line holds flags');
  const count = lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 2 : lines.length - 1;
  const flags = new Array<SnapshotFlag>(count);
  for (let i = 0; i < count; i++) {
    if (slices.spent()) await slices.next();
    flags[i] = parseObject(lines[i + 1] as string, `line ${i + 2}`) as unknown as SnapshotFlag;
  }
  return { ...(rest as Omit<SnapshotDocument, 'flags'>), flags };
}

function parseObject(line: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new DocumentLinesError(`${where} is not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DocumentLinesError(`${where} is not a JSON object`);
  return value as Record<string, unknown>;
}
