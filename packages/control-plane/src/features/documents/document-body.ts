/**
 * The text of an uploaded document, read whole up to the app's body limit. The management API's
 * body parser reads JSON objects only; an import's body is YAML or JSON text.
 */
import type { IncomingMessage } from 'node:http';
import { bodyTooLarge, invalid } from '@ensign/core';

/**
 * Reads the request body as UTF-8 text (a byte-order mark dropped); more than `limitBytes` is a
 * 413. What comes after the limit is read and dropped rather than left unread, so the client
 * gets to read the answer instead of a reset connection.
 */
export function readDocumentText(req: IncomingMessage, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limitBytes) {
      req.resume();
      reject(bodyTooLarge(limitBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limitBytes) {
        over = true;
        chunks.length = 0;
        reject(bodyTooLarge(limitBytes));
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => {
      if (!over) resolve(new TextDecoder('utf-8').decode(Buffer.concat(chunks)));
    });
    req.on('error', (err) => reject(invalid(`invalid request body: ${err.message}`)));
  });
}
