/**
 * How fast the UI answers a key in each of its search fields, in Chromium against `ensign server`:
 * for each key, the time from the page first seeing it to the field showing it, rendered (the
 * probe of `@ensign/testkit/key-probe`). The fields: the Flags and Segments searches, the "Filter
 * segments" box of the rule and rollout dialogs, the Console's flag field and the Ctrl-K search.
 * The ceiling beside them, in the same browser and run: a bare `<input>` on an empty page, which
 * any field costs at least. A namespace of `BENCH_TYPING_ITEMS` flags and segments (43 by default,
 * about what a team has; 1,000 or more to see a large one); `BENCH_TYPING_ROUNDS` bursts of 19 keys
 * with no delay between them, each after a pause longer than the address takes to follow a search.
 * Run: `npm run bench:typing` (needs Chromium: `ENSIGN_TEST_CHROMIUM`, /usr/bin/chromium by default);
 * writes results/typing.json, and stops by itself after `BENCH_TYPING_TIMEOUT_SECONDS` (900).
 */
import { loadavg } from 'node:os';
import { jsonClient, startEnsign } from '@ensign/testkit';
import { installKeyProbe, KEY_PROBE_KEYS, type KeyTiming } from '@ensign/testkit/key-probe';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { machineOf, writeResults } from '../engine/results-file.js';
import { installSafetyNets, runToExit } from '../propagation/children.js';

const ITEMS = Number(process.env['BENCH_TYPING_ITEMS'] ?? 43);
const ROUNDS = Number(process.env['BENCH_TYPING_ROUNDS'] ?? 10);
const CHROMIUM = process.env['ENSIGN_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const NS = 'typing';
const TYPED = 'premium-eu-and-more';
/** Longer than the address takes to follow a search (250 ms), so a burst measures keys, not that write. */
const PAUSE_MS = 500;
/** The whole run stops by itself after this long, whatever hangs. */
const clearTimeoutGuard = installSafetyNets(Number(process.env['BENCH_TYPING_TIMEOUT_SECONDS'] ?? 900), 'typing benchmark');

/** A field to type into, reached from a fresh page of the UI at `base`. */
interface Field {
  name: string;
  open: (page: Page, base: string) => Promise<Locator>;
}

const FIELDS: Field[] = [
  { name: 'Flags search', open: async (page, base) => (await page.goto(`${base}/namespaces/${NS}/flags`), page.getByLabel('Search flags')) },
  { name: 'Segments search', open: async (page, base) => (await page.goto(`${base}/namespaces/${NS}/segments`), page.getByLabel('Search segments')) },
  {
    name: 'Filter segments (rule)',
    open: async (page, base) => {
      await page.goto(`${base}/namespaces/${NS}/flags/basic`);
      await page.getByRole('button', { name: 'Add rule' }).click();
      return page.getByRole('dialog', { name: 'Add rule' }).getByLabel('Filter segments');
    },
  },
  {
    name: 'Filter segments (rollout)',
    open: async (page, base) => {
      await page.goto(`${base}/namespaces/${NS}/flags/banner`);
      await page.getByRole('button', { name: 'Add rollout' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add rollout' });
      await dialog.getByRole('radio', { name: 'Segment' }).check();
      return dialog.getByLabel('Filter segments');
    },
  },
  {
    name: 'Console flag',
    open: async (page, base) => {
      await page.goto(`${base}/namespaces/${NS}/console`);
      await page.getByText('Type to search the flags of this namespace.').waitFor();
      return page.getByLabel('Flag', { exact: true });
    },
  },
  {
    name: 'Ctrl-K search',
    open: async (page, base) => {
      await page.goto(`${base}/namespaces/${NS}/flags`);
      await page.getByRole('link', { name: 'basic', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      return page.getByRole('combobox', { name: 'Search for a flag, segment, page or namespace' });
    },
  },
];

/** The bare ceiling: a plain input on an empty page. */
const BARE: Field = {
  name: 'bare <input> (ceiling)',
  open: async (page) => (await page.setContent('<input aria-label="bare">'), page.getByLabel('bare')),
};

interface Figures {
  keys: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** How long keys waited to reach the page: the browser and the machine, not the field. */
  waitedMeanMs: number;
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const round2 = (ms: number): number => Math.round(ms * 100) / 100;

/** Types `ROUNDS` bursts into one field of a fresh page and sums up what the probe saw. */
async function measure(browser: Browser, base: string, field: Field): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const input = await field.open(page, base);
    await input.waitFor();
    const seen: KeyTiming[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await input.fill('');
      await input.evaluate(installKeyProbe);
      await page.waitForTimeout(PAUSE_MS);
      await input.pressSequentially(TYPED, { delay: 0 });
      await page.waitForFunction(`${KEY_PROBE_KEYS}.length >= ${TYPED.length}`);
      const keys = await page.evaluate<KeyTiming[]>(KEY_PROBE_KEYS);
      if (keys.at(-1)?.value !== TYPED) throw new Error(`${field.name}: the field holds "${keys.at(-1)?.value}", not "${TYPED}"`);
      seen.push(...keys);
    }
    const sorted = seen.map((k) => k.ms).sort((a, b) => a - b);
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    return {
      keys: seen.length,
      meanMs: round2(mean(sorted)),
      p50Ms: round2(quantile(sorted, 0.5)),
      p95Ms: round2(quantile(sorted, 0.95)),
      maxMs: round2(sorted.at(-1) ?? Number.NaN),
      waitedMeanMs: round2(mean(seen.map((k) => k.waitedMs))),
    };
  } finally {
    await context.close();
  }
}

async function seed(base: string): Promise<void> {
  const api = jsonClient(base);
  const post = async (path: string, body: unknown) => {
    const res = await api.post(path, body);
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  };
  await post('/api/v1/namespaces', { key: NS, name: NS });
  const keys = ['premium-eu-and-more', 'premium-us', 'basic', ...Array.from({ length: Math.max(0, ITEMS - 3) }, (_, i) => `filler-${String(i).padStart(5, '0')}`)];
  for (const key of keys) {
    await post(`/api/v1/namespaces/${NS}/flags`, { key, name: key, type: 'VARIANT_FLAG_TYPE' });
    await post(`/api/v1/namespaces/${NS}/segments`, { key, name: key, matchType: 'ALL_MATCH_TYPE' });
  }
  await post(`/api/v1/namespaces/${NS}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE' });
}

async function main(): Promise<number> {
  const loadAverage = loadavg();
  const server = await startEnsign({ env: { ENSIGN_LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  const results: Record<string, Figures> = {};
  try {
    await seed(server.baseUrl);
    for (const field of [BARE, ...FIELDS]) results[field.name] = await measure(browser, server.baseUrl, field);
  } finally {
    await browser.close();
    await server.stop();
  }

  const bare = results[BARE.name]?.meanMs ?? Number.NaN;
  console.log(`\n${ITEMS} flags and segments, ${ROUNDS} bursts of ${TYPED.length} keys a field (ms a key, from the page seeing it to the field rendered)`);
  console.log('field                          mean    p50    p95    max   × bare   (key waited to reach the page)');
  for (const [name, f] of Object.entries(results)) {
    const ratio = name === BARE.name ? '' : `${(f.meanMs / bare).toFixed(1)}×`;
    console.log(`${name.padEnd(28)} ${[f.meanMs, f.p50Ms, f.p95Ms, f.maxMs].map((v) => v.toFixed(2).padStart(6)).join(' ')} ${ratio.padStart(8)}   (${f.waitedMeanMs.toFixed(2)})`);
  }
  const path = writeResults('typing.json', { date: new Date().toISOString(), machine: machineOf(loadAverage), items: ITEMS, rounds: ROUNDS, results });
  console.log(`\nwritten ${path}`);
  return 0;
}

await runToExit('typing benchmark', main, clearTimeoutGuard);
