/** Reading a JSON request body on node:http, bounded in size. */
import type { IncomingMessage } from 'node:http';
import { bodyTooLarge, type Fields, invalid, isFields } from '@ensign/core';

/** What `readBody` hands back: the body text, or why there is none to read. */
export type BodyCallback = (err: unknown, text: string | undefined) => void;

/**
 * How much of a refused body is read and thrown away before the 413 goes out. Answering while the
 * client is still sending and then closing makes the kernel reset the connection, and the client
 * sees the reset instead of the 413; past this bound the connection is simply cut.
 */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Reads the whole body as UTF-8 text. A body over `limitBytes` is refused (from Content-Length,
 * or while streaming): nothing more is buffered, the rest is drained and the 413 answered once
 * the client has finished sending. A callback rather than a promise: answering inside the
 * request's `end` event, not a microtask later, is measurably cheaper on the hot path.
 */
export function readBody(req: IncomingMessage, limitBytes: number, done: BodyCallback): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const declared = req.headers['content-length'];
  let over = declared !== undefined && Number(declared) > limitBytes;
  let finished = false;
  const finish = (err: unknown, text: string | undefined): void => {
    if (finished) return;
    finished = true;
    done(err, text);
  };
  // Listeners live and die with the request; a body that stops half-way (client gone) answers nothing.
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (over) {
      if (size > DRAIN_LIMIT_BYTES) req.socket.destroy();
      return;
    }
    if (size > limitBytes) {
      over = true;
      chunks.length = 0;
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (over) return finish(bodyTooLarge(limitBytes), undefined);
    const only = chunks.length === 1 ? chunks[0] : undefined;
    finish(undefined, (only ?? Buffer.concat(chunks, size)).toString('utf8'));
  });
  req.on('error', (err: Error) => finish(invalid(`invalid request body: ${err.message}`), undefined));
}

/**
 * Parses a body as JSON whatever its Content-Type. COMPAT(flipt): the gateway does the same; an
 * empty or `null` body is `{}`; anything but an object is a 400.
 */
export function parseJsonObject(text: string): Fields {
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    if (text.trim() === '') return {};
    throw invalid(`invalid JSON body: ${(err as Error).message}`);
  }
  if (value === null) return {};
  if (!isFields(value)) throw invalid('invalid JSON body: must be a JSON object');
  return value;
}

/** A request's query as fields (the first value of each name), or undefined when it has none. */
export function queryFields(url: string | undefined): Fields | undefined {
  const q = url?.indexOf('?') ?? -1;
  if (q === -1) return undefined;
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams((url as string).slice(q + 1))) if (!(name in fields)) fields[name] = value;
  return fields;
}
