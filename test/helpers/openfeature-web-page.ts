/**
 * A page in Chromium running the web SDK with Ensign's web provider, served on the Ensign server's
 * own origin: the browser is handed the page, its import map and the bundles by Playwright's
 * routing, while every other request (the snapshot, the stream) goes to the real server. Ensign
 * sends no CORS headers, so this is how a site serves it too: on its own origin, behind a proxy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '@ensign/testkit';
import type { ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import type { WebBundles } from './openfeature-web-bundle.js';
import { openPage, type OpenedPage } from './ui-browser.js';

/** Where the page lives on the server's origin; nothing of Ensign answers there. */
const PAGE_PATH = '/__web-provider/';

const HARNESS = readFileSync(join(repositoryRoot, 'test/fixtures/openfeature-web-page/harness.js'), 'utf8');

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Ensign web provider</title>
<script type="importmap">{"imports": {"@openfeature/web-sdk": "./web-sdk.js", "@ensign/openfeature-web-provider": "./provider.js"}}</script>
<script type="module" src="./harness.js"></script>
</head><body></body></html>`;

/** A flag as the harness asks for it. */
export interface PageFlag {
  key: string;
  type: 'BOOLEAN_FLAG_TYPE' | 'VARIANT_FLAG_TYPE';
}

/** An event the SDK announced. */
export interface PageEvent {
  type: string;
  flagsChanged?: string[];
  message?: string;
}

/** One flag's answer through the SDK's client. */
export interface PageAnswer {
  value: unknown;
  variant?: string;
  reason?: string;
  errorCode?: string;
  metadata: Record<string, unknown>;
  attachment?: unknown;
}

interface Harness {
  start(options: Record<string, unknown>, context: Record<string, unknown>): Promise<{ status: string; error?: string }>;
  status(): string;
  events(): PageEvent[];
  setContext(context: Record<string, unknown>): Promise<void>;
  answers(flags: PageFlag[]): Record<string, PageAnswer>;
  lines(contexts: Array<Record<string, unknown>>, flags: PageFlag[]): Promise<string[][]>;
}

/** The page's global object; functions evaluated in the page reach the harness through it (they take no closure along). */
type PageGlobal = { harness: Harness };

export interface ProviderPage {
  page: Page;
  start(options: Record<string, unknown>, context: Record<string, unknown>): Promise<{ status: string; error?: string }>;
  events(): Promise<PageEvent[]>;
  setContext(context: Record<string, unknown>): Promise<void>;
  answers(flags: PageFlag[]): Promise<Record<string, PageAnswer>>;
  lines(contexts: Array<Record<string, unknown>>, flags: PageFlag[]): Promise<string[][]>;
  /** Waits until the client's provider status is `status`. */
  waitForStatus(status: string, timeoutMs?: number): Promise<void>;
  /** Waits until the SDK has announced `type` at least `count` times. */
  waitForEvent(type: string, count?: number): Promise<void>;
  /** Waits until `flag` is answered from a snapshot other than `version`. */
  waitForSnapshotAfter(flag: PageFlag, version: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Failures a test provokes on purpose (a stopped server) log errors in Chromium. */
const EXPECTED_CONSOLE_ERRORS = [/Failed to load resource/, /net::ERR_/, /EventSource/];

export async function openProviderPage(t: ExecutionContext, browser: Browser, origin: string, bundles: WebBundles): Promise<ProviderPage> {
  const opened: OpenedPage = await openPage(t, browser, 'about:blank', { allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });
  const files: Record<string, string> = { '': PAGE, 'harness.js': HARNESS, 'provider.js': bundles.provider, 'web-sdk.js': bundles.webSdk };
  await opened.context.route(`${origin}${PAGE_PATH}**`, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(PAGE_PATH.length);
    const body = files[name];
    if (body === undefined) await route.fulfill({ status: 404, body: 'not found' });
    else await route.fulfill({ status: 200, contentType: name === '' ? 'text/html' : 'text/javascript', body });
  });
  const { page } = opened;
  await page.goto(`${origin}${PAGE_PATH}`);
  await page.waitForFunction(() => (globalThis as { harness?: unknown }).harness !== undefined);
  return {
    page,
    start: (options, context) => page.evaluate(([o, c]) => (globalThis as unknown as PageGlobal).harness.start(o, c), [options, context] as const),
    events: () => page.evaluate(() => (globalThis as unknown as PageGlobal).harness.events()),
    setContext: (context) => page.evaluate((c) => (globalThis as unknown as PageGlobal).harness.setContext(c), context),
    answers: (flags) => page.evaluate((f) => (globalThis as unknown as PageGlobal).harness.answers(f), flags),
    lines: (contexts, flags) => page.evaluate(([c, f]) => (globalThis as unknown as PageGlobal).harness.lines(c, f), [contexts, flags] as const),
    async waitForStatus(status, timeoutMs = 15_000) {
      await page.waitForFunction((s) => (globalThis as unknown as PageGlobal).harness.status() === s, status, { timeout: timeoutMs });
    },
    async waitForEvent(type, count = 1) {
      await page.waitForFunction(([ty, n]) => (globalThis as unknown as PageGlobal).harness.events().filter((event) => event.type === ty).length >= n, [type, count] as const);
    },
    async waitForSnapshotAfter(flag, version) {
      await page.waitForFunction(([f, v]) => (globalThis as unknown as PageGlobal).harness.answers([f])[f.key]?.metadata['version'] !== v, [flag, version] as const);
    },
    close: () => opened.close(),
  };
}
