/**
 * The web UI's files as the control plane serves them: the page at `/` and at every client route,
 * files by path with their type and caching, compressed when asked, 304 to a matching ETag, and
 * never in the way of the APIs.
 */
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test from 'ava';
import { createUiAssets } from '../src/index.js';
import { type Harness, startHarness } from './harness.js';

const PAGE = `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

let h: Harness;
test.before(async () => {
  h = await startHarness({
    ui: createUiAssets([
      { path: '/index.html', body: Buffer.from(PAGE) },
      { path: '/assets/index-abc123.js', body: Buffer.from(SCRIPT) },
      { path: '/favicon.svg', body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
    ]),
  });
});
test.after.always(() => h?.close());

test('the page answers / and every client route, revalidated each time, with a content security policy', async (t) => {
  for (const path of ['/', '/index.html', '/namespaces/shop/flags', '/settings/tokens/']) {
    const res = await h.call('GET', path, { headers: { 'accept-encoding': 'identity' } });
    t.is(res.status, 200, path);
    t.is(res.text, PAGE, path);
    t.is(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
    t.is(res.headers.get('cache-control'), 'no-cache', path);
    t.is(res.headers.get('x-content-type-options'), 'nosniff', path);
    t.regex(res.headers.get('content-security-policy') ?? '', /default-src 'self'; script-src 'self'/, path);
  }
});

test('hashed files are immutable for a year; other files are cached for an hour', async (t) => {
  const script = await h.call('GET', '/assets/index-abc123.js', { headers: { 'accept-encoding': 'identity' } });
  t.is(script.text, SCRIPT);
  t.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.is(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.is(script.headers.get('content-security-policy'), null, 'the policy belongs to the page');
  const icon = await h.call('GET', '/favicon.svg');
  t.is(icon.headers.get('content-type'), 'image/svg+xml');
  t.is(icon.headers.get('cache-control'), 'public, max-age=3600');
});

/** The body exactly as sent (node:http does not decode), with its Content-Encoding and Vary. */
function rawGet(url: string, acceptEncoding: string): Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, body: Buffer.concat(chunks) }));
    }).once('error', reject);
  });
}

test('brotli is preferred, gzip otherwise, identity when neither is accepted; small files are sent as they are', async (t) => {
  const script = `${h.base}/assets/index-abc123.js`;
  const br = await rawGet(script, 'gzip, deflate, br');
  t.is(br.encoding, 'br');
  t.true(br.body.length < SCRIPT.length / 10, 'compressed');
  t.is(brotliDecompressSync(br.body).toString(), SCRIPT);
  const gzip = await rawGet(script, 'gzip');
  t.is(gzip.encoding, 'gzip');
  t.is(gunzipSync(gzip.body).toString(), SCRIPT);
  const identity = await rawGet(script, 'identity');
  t.is(identity.encoding, undefined);
  t.is(identity.body.toString(), SCRIPT);
  for (const res of [br, gzip, identity]) t.is(res.vary, 'Accept-Encoding');
  const icon = await rawGet(`${h.base}/favicon.svg`, 'br');
  t.is(icon.encoding, undefined, 'under 1 KiB is not worth compressing');
});

test('a matching ETag is a 304; HEAD answers the headers without a body', async (t) => {
  const first = await h.call('GET', '/assets/index-abc123.js');
  const etag = first.headers.get('etag') ?? '';
  t.regex(etag, /^"[\w-]+"$/);
  const again = await h.call('GET', '/assets/index-abc123.js', { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
  t.is(again.status, 304);
  t.is(again.text, '');
  const changed = await h.call('GET', '/assets/index-abc123.js', { headers: { 'if-none-match': '"other"', 'cache-control': 'max-age=0' } });
  t.is(changed.status, 200);
  const head = await h.call('HEAD', '/namespaces/shop/flags');
  t.is(head.status, 200);
  t.is(head.text, '');
  t.is(head.headers.get('content-type'), 'text/html; charset=utf-8');
});

test('a missing file is a 404, and the APIs, /health and writes never get the page', async (t) => {
  t.is((await h.call('GET', '/assets/missing-999.js')).status, 404);
  t.is((await h.call('GET', '/robots.txt')).status, 404);
  const api = await h.call('GET', '/api/v1/nope');
  t.deepEqual(api.json, { code: 5, message: 'Not Found', details: [] });
  t.deepEqual((await h.call('GET', '/health')).json, { status: 'SERVING' });
  t.is((await h.call('GET', '/auth/v1/anything')).headers.get('content-type')?.startsWith('text/html'), false);
  t.is((await h.call('POST', '/namespaces/shop/flags')).status, 404, 'only reads are the UI\'s');
});

test('the UI cannot be built without its page', (t) => {
  t.throws(() => createUiAssets([{ path: '/assets/a.js', body: Buffer.from('') }]), { message: 'the web UI has no index.html' });
});
