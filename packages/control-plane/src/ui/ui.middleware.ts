/**
 * Serves the web UI at `/`: its files by path, and `index.html` for every other page path, so the
 * browser's client-side routes (`/namespaces/shop/flags`) load on a refresh or a shared link.
 * Paths of the APIs are never answered here.
 */
import type { Middleware } from 'koa';
import type { AppState } from '../http/app-state.js';
import type { Encoding, UiAsset, UiAssets } from './ui-assets.js';

/** Prefixes that belong to the service's own routes, not to the UI. */
const RESERVED = ['/api', '/auth', '/evaluate', '/internal', '/ofrep', '/health', '/metrics', '/meta'];
const isReserved = (path: string): boolean => RESERVED.some((p) => path === p || path.startsWith(`${p}/`));

/** Below 1 KiB a compressed body saves less than its headers cost. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * The page may load only its own scripts and styles and talk only to its own origin; avatars of
 * signed-in users come from their identity provider (https). Nothing may frame it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

function preferredEncoding(acceptEncoding: string): Encoding | undefined {
  const accepted = acceptEncoding.toLowerCase();
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return undefined;
}

export function uiMiddleware(assets: UiAssets): Middleware<AppState> {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isReserved(ctx.path)) return next();
    let file: UiAsset | undefined = assets.get(ctx.path === '/' ? '/index.html' : ctx.path);
    // A path with an extension names a file: a missing one is a 404, not the page.
    if (file === undefined && !/\.[a-z0-9]+$/i.test(ctx.path)) file = assets.index;
    if (file === undefined) return next();

    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('ETag', file.etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (file === assets.index) {
      ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      ctx.set('Referrer-Policy', 'same-origin');
    }
    ctx.type = file.contentType;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const encoding = file.compressible && file.body.length >= COMPRESS_FROM_BYTES ? preferredEncoding(ctx.get('Accept-Encoding')) : undefined;
    if (file.compressible) ctx.vary('Accept-Encoding');
    if (encoding === undefined) {
      ctx.body = file.body;
      return;
    }
    ctx.set('Content-Encoding', encoding);
    ctx.body = await file.encoded(encoding);
  };
}
