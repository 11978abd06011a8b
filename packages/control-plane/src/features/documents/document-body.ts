/**
 * The text of an uploaded document, read whole up to the app's body limit. The management API's
 * body parser reads JSON objects only; an import's body is YAML or JSON text.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { boundedInput, bodyTooLarge, invalid } from '@ensign/core';

/**
 * The body decoded from its Content-Encoding, as the API's JSON parser decodes it (gzip, deflate,
 * br); any other encoding is refused rather than read as if it were none.
 */
function decoderOf(req: IncomingMessage): Transform | undefined {
  const encoding = req.headers['content-encoding'] ?? 'identity';
  if (encoding === 'identity') return undefined;
  if (encoding === 'gzip' || encoding === 'deflate') return createUnzip();
  if (encoding === 'br') return createBrotliDecompress();
  throw invalid(`invalid request body: Unsupported Content-Encoding: ${boundedInput(encoding)}`);
}

/**
 * Reads the request body as UTF-8 text (a byte-order mark dropped); more than `limitBytes` (once
 * decoded) is a 413. What comes after the limit, or after a refusal, is read and dropped rather
 * than left unread, so the client gets to read the answer instead of a reset connection.
 */
export function readDocumentText(req: IncomingMessage, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limitBytes) {
      req.resume();
      reject(bodyTooLarge(limitBytes));
      return;
    }
    let decoder: Transform | undefined;
    try {
      decoder = decoderOf(req);
    } catch (err) {
      req.resume();
      reject(err);
      return;
    }
    const body: Readable = decoder === undefined ? req : req.pipe(decoder);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    body.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limitBytes) {
        over = true;
        chunks.length = 0;
        // The rest is not decoded: a small compressed body may stand for gigabytes.
        if (decoder !== undefined) {
          req.unpipe(decoder);
          decoder.destroy();
          req.resume();
        }
        reject(bodyTooLarge(limitBytes));
      } else {
        chunks.push(chunk);
      }
    });
    body.on('end', () => {
      if (!over) resolve(new TextDecoder('utf-8').decode(Buffer.concat(chunks)));
    });
    const unreadable = (err: Error) => {
      req.resume();
      reject(invalid(`invalid request body: ${err.message}`));
    };
    req.on('error', unreadable);
    decoder?.on('error', unreadable);
  });
}
