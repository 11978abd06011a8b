/**
 * A real Chromium (Debian's, at /usr/bin/chromium) driven by playwright-core, for the UI's
 * end-to-end tests. Each test file launches one browser (`useUiServer` gives a file its server and
 * browser); each test opens pages in a context of its own (its own cookies and storage). Script
 * errors on a page fail the test that opened it, and screenshots land in test/artifacts/screenshots.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type EnsignProcess, type JsonClient, jsonClient, repositoryRoot, startEnsign, type StartOptions } from '@ensign/testkit';
import type { ExecutionContext, TestFn } from 'ava';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** The browser the tests drive; `ENSIGN_TEST_CHROMIUM` points elsewhere. */
export const CHROMIUM_PATH = process.env['ENSIGN_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

/** Where screenshots are written (gitignored; CI keeps them as artifacts). */
export const SCREENSHOT_DIR = join(repositoryRoot, 'test', 'artifacts', 'screenshots');

/** Headless, and without the background traffic a closed network refuses. */
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}

/**
 * How long an action or a wait for the page may take. What passes takes as long as it takes; the
 * bound only decides when a page that lags on a loaded two-core CI machine counts as failed.
 */
export const ACTION_TIMEOUT_MS = 30_000;

export interface PageOptions {
  /** 1280×800 by default. */
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** The browser's time zone (IANA name); UTC by default, so what a test reads does not depend on the machine. */
  timezoneId?: string;
  /** The browser's locale (`en-US`), which dates are written in; the machine's by default. */
  locale?: string;
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Script errors and failed console lines seen so far (each fails the test at `close`). */
  errors: string[];
  /** Closes the context; fails `t` when the page threw or logged an error. */
  close(): Promise<void>;
}

/**
 * Tests of one file that hold pages at once. Chromium's pages share the machine's two cores with
 * the servers and the other test files; past two, a page only waits for CPU until its actions time
 * out. A test holds its place from its first page until it ends (so one that opens two pages never
 * waits on itself).
 */
const PAGE_HOLDERS = 2;
const holders = new Set<ExecutionContext>();
const queued: Array<() => void> = [];

async function holdPages(t: ExecutionContext): Promise<void> {
  if (holders.has(t)) return;
  while (holders.size >= PAGE_HOLDERS) await new Promise<void>((resolve) => queued.push(resolve));
  holders.add(t);
  t.teardown(() => {
    holders.delete(t);
    queued.shift()?.();
  });
}

/**
 * Opens `baseUrl` + `path` in a fresh context. `allowConsoleErrors` lists patterns of console
 * errors a test provokes on purpose (a refused request logs one in Chromium).
 */
export async function openPage(t: ExecutionContext, browser: Browser, url: string, options: PageOptions & { allowConsoleErrors?: RegExp[] } = {}): Promise<OpenedPage> {
  await holdPages(t);
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    // Times the UI shows follow the browser's zone: UTC unless a test picks one, whatever the machine's.
    timezoneId: options.timezoneId ?? 'UTC',
    ...(options.locale === undefined ? {} : { locale: options.locale }),
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  // Page loads fetch the bundle from a server that shares two cores with the rest of a CI run.
  context.setDefaultNavigationTimeout(45_000);
  const page = await context.newPage();
  const errors: string[] = [];
  const allowed = options.allowConsoleErrors ?? [/Failed to load resource: the server responded with a status of 4\d\d/];
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowed.some((pattern) => pattern.test(message.text()))) errors.push(`console error: ${message.text()}`);
  });
  await page.goto(url);
  return {
    page,
    context,
    errors,
    async close() {
      await context.close();
      t.deepEqual(errors, [], 'the page raised no script errors');
    },
  };
}

/** Saves a PNG of the page as test/artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false, animations: 'disabled' });
  return path;
}

/** What a hook sets up, read inside the tests (and hooks declared after it), once it is there. */
function ready<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not started yet: read it inside a test or a later hook`);
  return value;
}

/**
 * A browser for the whole test file: launched by a serial `before` hook (so `before` hooks declared
 * later see it) and closed after the last test.
 */
export function useBrowser(test: TestFn): { readonly browser: Browser } {
  let browser: Browser | undefined;
  test.serial.before(async () => {
    browser = await launchBrowser();
  });
  test.after.always(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      return ready(browser, 'the browser');
    },
  };
}

/**
 * An `ensign server` for the whole test file (a fresh SQLite database; warnings only in its log
 * unless `options.env` says otherwise), started like `useBrowser`'s browser.
 */
export function useEnsign(test: TestFn, options: StartOptions = {}): { readonly server: EnsignProcess; readonly api: JsonClient } {
  let server: EnsignProcess | undefined;
  let api: JsonClient | undefined;
  test.serial.before(async () => {
    server = await startEnsign({ ...options, env: { ENSIGN_LOG_LEVEL: 'warn', ...options.env } });
    api = jsonClient(server.baseUrl);
  });
  test.after.always(async () => {
    await server?.stop();
  });
  return {
    get server() {
      return ready(server, 'the server');
    },
    get api() {
      return ready(api, 'the server');
    },
  };
}

export interface UiServer {
  readonly server: EnsignProcess;
  readonly browser: Browser;
  /** The server's API, to seed what a test is not about and to check what the UI stored. */
  readonly api: JsonClient;
}

/**
 * The set-up of a UI test file: an `ensign server` (`options` as `startEnsign` takes them; warnings
 * only in its log), then a browser, started before the first test and stopped after the last.
 */
export function useUiServer(test: TestFn, options: StartOptions = {}): UiServer {
  const ensign = useEnsign(test, options);
  const chromium = useBrowser(test);
  return {
    get server() {
      return ensign.server;
    },
    get browser() {
      return chromium.browser;
    },
    get api() {
      return ensign.api;
    },
  };
}
