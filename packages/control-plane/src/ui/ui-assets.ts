/**
 * The web UI's built files, held in memory: each with its content type, an ETag, how long a
 * browser may cache it, and its gzip and brotli encodings, made once on first demand.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** One file of the built UI, at its URL path (`/index.html`, `/assets/index-3f2a.js`). */
export interface UiFile {
  path: string;
  body: Buffer;
}

export type Encoding = 'br' | 'gzip';

/** A file ready to serve. */
export interface UiAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /** A strong validator: the content's hash. */
  readonly etag: string;
  readonly cacheControl: string;
  /** Whether a compressed encoding is worth offering. */
  readonly compressible: boolean;
  /** The body in `encoding`, compressed on first demand and kept. */
  encoded(encoding: Encoding): Promise<Buffer>;
}

/** The UI's files by path, and the page every client-side route answers with. */
export interface UiAssets {
  get(path: string): UiAsset | undefined;
  readonly index: UiAsset;
}

const CONTENT_TYPES: Readonly<Record<string, [type: string, compressible: boolean]>> = {
  '.html': ['text/html; charset=utf-8', true],
  '.js': ['text/javascript; charset=utf-8', true],
  '.css': ['text/css; charset=utf-8', true],
  '.json': ['application/json; charset=utf-8', true],
  '.svg': ['image/svg+xml', true],
  '.txt': ['text/plain; charset=utf-8', true],
  '.map': ['application/json; charset=utf-8', true],
  '.png': ['image/png', false],
  '.jpg': ['image/jpeg', false],
  '.ico': ['image/x-icon', false],
  '.woff2': ['font/woff2', false],
};

/** Vite puts content-hashed files under /assets/: their content never changes under a name. */
const HASHED = /^\/assets\//;

const extensionOf = (path: string): string => {
  const dot = path.lastIndexOf('.');
  return dot < path.lastIndexOf('/') ? '' : path.slice(dot);
};

function asset(file: UiFile): UiAsset {
  const [contentType, compressible] = CONTENT_TYPES[extensionOf(file.path)] ?? ['application/octet-stream', false];
  const encodings = new Map<Encoding, Promise<Buffer>>();
  return {
    body: file.body,
    contentType,
    etag: `"${createHash('sha256').update(file.body).digest('base64url').slice(0, 27)}"`,
    // The page itself is revalidated on every load, so a new release is picked up at once.
    cacheControl: file.path === '/index.html' ? 'no-cache' : HASHED.test(file.path) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    compressible,
    encoded(encoding) {
      let pending = encodings.get(encoding);
      if (pending === undefined) {
        pending = encoding === 'br' ? brotli(file.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: file.body.length } }) : gzipped(file.body, { level: 9 });
        encodings.set(encoding, pending);
      }
      return pending;
    },
  };
}

/** Indexes the built files; fails when `index.html` is missing, since nothing could be served without it. */
export function createUiAssets(files: Iterable<UiFile>): UiAssets {
  const byPath = new Map<string, UiAsset>();
  for (const file of files) byPath.set(file.path, asset(file));
  const index = byPath.get('/index.html');
  if (index === undefined) throw new Error('the web UI has no index.html');
  return { get: (path) => byPath.get(path), index };
}
