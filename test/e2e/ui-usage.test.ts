/**
 * What flags are used for, in a real Chromium against a real `ensign server` that ships its
 * evaluation counts every second: a flag's Usage tab (the total and the split of a range, the last
 * evaluation, the chart, the range in the address, pausing the refresh), its states when the service
 * has no usage or fails, and the flags list's "Last evaluated" column, its order, the status badges
 * and "Stale only" over a window given in the address; on a desktop and on a 390×844 screen, light
 * and dark. Each test seeds a namespace of its own through the API; they run one after another.
 */
import { setTimeout as delay } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import type { Page, Route } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';

const ui = useUiServer(test, { config: { analytics: { buffer: { flush_period: '1s' } } } });

/** The Usage tab refreshes every 5 s and counts arrive within a second or two of an evaluation. */
const ARRIVAL_MS = 20_000;

/** Some tests make a usage route fail on purpose; Chromium logs each failure. */
const REFUSALS = [/Failed to load resource: the server responded with a status of [45]\d\d/];
const open = (t: ExecutionContext, path: string, options?: PageOptions) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, { allowConsoleErrors: REFUSALS, ...options });

/** Creates through the API, failing the test on anything but 200; resolves the body. */
async function create(t: ExecutionContext, path: string, body: unknown): Promise<{ id: string }> {
  const res = await ui.api.post(path, body);
  t.is(res.status, 200, `POST ${path}: ${res.text}`);
  return res.body as { id: string };
}

/** A variant flag whose rule on everyone splits 50/50 between blue and green. */
async function splitFlag(t: ExecutionContext, ns: string, key: string): Promise<void> {
  const api = `/api/v1/namespaces/${ns}`;
  if ((await ui.api.get(`${api}/segments/everyone`)).status !== 200) await create(t, `${api}/segments`, { key: 'everyone', name: 'Everyone', matchType: 'ALL_MATCH_TYPE' });
  await create(t, `${api}/flags`, { key, name: key, type: 'VARIANT_FLAG_TYPE', enabled: true });
  const blue = await create(t, `${api}/flags/${key}/variants`, { key: 'blue', name: 'Blue' });
  const green = await create(t, `${api}/flags/${key}/variants`, { key: 'green', name: 'Green' });
  const rule = await create(t, `${api}/flags/${key}/rules`, { segmentKey: 'everyone', rank: 1 });
  await create(t, `${api}/flags/${key}/rules/${rule.id}/distributions`, { variantId: blue.id, rollout: 50 });
  await create(t, `${api}/flags/${key}/rules/${rule.id}/distributions`, { variantId: green.id, rollout: 50 });
}

/** An enabled boolean flag that answers false for half of the entities (a 50 % threshold). */
async function halfFlag(t: ExecutionContext, ns: string, key: string): Promise<void> {
  await create(t, `/api/v1/namespaces/${ns}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  await create(t, `/api/v1/namespaces/${ns}/flags/${key}/rollouts`, { rank: 1, threshold: { percentage: 50, value: false } });
}

/** What the evaluations answered: value → how many times. */
type Served = Record<string, number>;

/** Evaluates a variant flag for `entities`, through `/evaluate/v1/variant`; resolves what it served. */
async function evaluateVariant(t: ExecutionContext, ns: string, flagKey: string, entities: readonly string[], served: Served = {}): Promise<Served> {
  for (const entityId of entities) {
    const res = await ui.api.post('/evaluate/v1/variant', { namespaceKey: ns, flagKey, entityId, context: {} });
    t.is(res.status, 200, res.text);
    served[res.body.variantKey] = (served[res.body.variantKey] ?? 0) + 1;
  }
  return served;
}

/** Evaluates a boolean flag for `entities`, through `/evaluate/v1/boolean`; resolves what it served. */
async function evaluateBoolean(t: ExecutionContext, ns: string, flagKey: string, entities: readonly string[]): Promise<Served> {
  const served: Served = {};
  for (const entityId of entities) {
    const res = await ui.api.post('/evaluate/v1/boolean', { namespaceKey: ns, flagKey, entityId, context: {} });
    t.is(res.status, 200, res.text);
    served[String(res.body.enabled)] = (served[String(res.body.enabled)] ?? 0) + 1;
  }
  return served;
}

const users = (n: number, prefix = 'user'): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);
/** "58.3%" as the split writes a share. */
const share = (count: number, of: number): string => {
  const rounded = Math.round((count / of) * 1000) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
};

/** The rows of the Usage tab's split, as a screen reader names them: `blue: 7 (58.3%)`. */
const splitRows = (page: Page): Promise<string[]> =>
  page
    .getByRole('list', { name: 'Values served' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));

/** Waits until the Usage tab's total reads `count`. */
const totalReads = (page: Page, count: number): Promise<void> => page.locator('.usage-total').getByText(count.toLocaleString('en'), { exact: true }).waitFor({ timeout: ARRIVAL_MS });

const noSideways = (page: Page): Promise<boolean> => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

/** The keys of the flags list's rows, top to bottom. */
const listedKeys = (page: Page): Promise<string[]> => page.locator('.flags-table tbody tr').getByRole('link').allTextContents();

/**
 * The keys listed once they are `expected` (the list follows the address in a transition, so a
 * single read may see the rows before it); the last ones read when they never become so.
 */
async function keysOnceThey(page: Page, expected: (keys: string[]) => boolean): Promise<string[]> {
  let keys = await listedKeys(page);
  for (let i = 0; i < 100 && !expected(keys); i++) {
    await delay(100);
    keys = await listedKeys(page);
  }
  return keys;
}
const same = (want: string[]) => (keys: string[]) => JSON.stringify(keys) === JSON.stringify(want);

/** The usage listing of a namespace over `window`, as the API answers it. */
async function listing(ns: string, window: string): Promise<Array<{ flagKey: string; evaluations: number; status: string; stale: boolean }>> {
  const res = await ui.api.get(`/api/v1/namespaces/${ns}/usage?window=${window}`);
  if (res.status !== 200) throw new Error(`usage of ${ns}: HTTP ${res.status} ${res.text}`);
  return res.body.flags;
}

test.serial('a flag’s Usage tab: the total and the split of the range, the last evaluation, the range in the address, pausing', async (t) => {
  const ns = 'usage-tab';
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  await splitFlag(t, ns, 'colour');
  const served = await evaluateVariant(t, ns, 'colour', users(12));
  t.deepEqual(Object.keys(served).sort(), ['blue', 'green'], 'both variants were served');

  const { page, close } = await open(t, `/namespaces/${ns}/flags/colour/usage`);
  t.is(await page.getByRole('link', { name: 'Usage' }).getAttribute('aria-current'), 'page', 'the Usage tab is the current one');
  await totalReads(page, 12);
  t.deepEqual(await splitRows(page), [`blue: ${served['blue']} (${share(served['blue']!, 12)})`, `green: ${served['green']} (${share(served['green']!, 12)})`]);
  const last = page.getByRole('definition').filter({ has: page.locator('time') }).locator('time');
  t.is(await last.textContent(), 'just now');
  t.regex((await last.getAttribute('title')) ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/, 'the exact time on hover');
  await page.getByRole('img', { name: 'Evaluations per minute over the last 30 minutes: 12 in all' }).waitFor();
  t.is(await page.getByText('No evaluations in this range').count(), 0);
  await screenshot(page, 'flag-usage');

  // A longer range: its own step, kept in the address, the same evaluations.
  await page.getByLabel('Range').selectOption({ label: 'Last 1 day' });
  await page.waitForURL('**/flags/colour/usage?range=1d');
  await page.getByRole('img', { name: 'Evaluations per 30 minutes over the last 1 day: 12 in all' }).waitFor();
  await page.reload();
  t.is(await page.getByLabel('Range').inputValue(), '1d', 'the range survives a reload');
  await totalReads(page, 12);

  // Paused, new evaluations wait; resumed, they show.
  await page.getByRole('button', { name: 'Pause updates' }).click();
  await page.getByRole('button', { name: 'Resume updates' }).waitFor();
  await page.getByText('Paused', { exact: true }).waitFor();
  await evaluateVariant(t, ns, 'colour', users(3, 'late'), served);
  await delay(7_000);
  t.is(await page.locator('.usage-total').textContent(), '12', 'nothing refreshed while paused');
  await page.getByRole('button', { name: 'Resume updates' }).click();
  await totalReads(page, 15);
  t.deepEqual(await splitRows(page), [`blue: ${served['blue']} (${share(served['blue']!, 15)})`, `green: ${served['green']} (${share(served['green']!, 15)})`]);
  await close();
});

/** Where the boxes of `selectors` are on the page, to the pixel. */
const boxes = (page: Page, selectors: readonly string[]): Promise<string[]> =>
  Promise.all(
    selectors.map(async (selector) => {
      const box = await page.locator(selector).first().boundingBox();
      return box === null ? `${selector}: none` : `${selector}: ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}`;
    }),
  );

test.serial('a boolean flag’s split, a flag never evaluated ("never", an empty range), and nothing moves when usage arrives', async (t) => {
  const ns = 'usage-bool';
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  await halfFlag(t, ns, 'dark-mode');
  await create(t, `/api/v1/namespaces/${ns}/flags`, { key: 'unused', name: 'Unused', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const served = await evaluateBoolean(t, ns, 'dark-mode', users(9));
  t.deepEqual(Object.keys(served).sort(), ['false', 'true'], 'both values were served');

  // The usage routes answer late: what is laid out before they do stays where it is after.
  const { page, close } = await open(t, `/namespaces/${ns}/segments`);
  const late = async (route: Route) => {
    await delay(1500);
    await route.continue();
  };
  await page.route('**/internal/v1/analytics/**', late);
  await page.route(`**/api/v1/namespaces/${ns}/usage*`, late);
  await page.route(`**/api/v1/namespaces/${ns}/flags/*/usage*`, late);
  await page.getByRole('link', { name: 'Flags', exact: true }).click();
  const list = ['.flags-table thead', '.flags-table tbody tr', '.last-evaluated-cell'];
  await page.locator('.last-evaluated-cell').getByText('…').first().waitFor();
  const listBefore = await boxes(page, list);
  await page.locator('.last-evaluated-cell').getByText('never').first().waitFor({ timeout: ARRIVAL_MS });
  t.deepEqual(await boxes(page, list), listBefore, 'the list does not move');

  await page.getByRole('link', { name: 'dark-mode' }).click();
  await page.getByRole('link', { name: 'Usage' }).click();
  const tab = ['.usage-toolbar', '.usage-timeline', '.usage-served .card-header', '.split-list'];
  await page.getByText('Loading evaluations…').waitFor();
  const tabBefore = await boxes(page, tab);
  await totalReads(page, 9);
  t.deepEqual(await boxes(page, tab), tabBefore, 'the Usage tab does not move');
  await page.unrouteAll();
  t.deepEqual(await splitRows(page), [`true: ${served['true']} (${share(served['true']!, 9)})`, `false: ${served['false']} (${share(served['false']!, 9)})`]);

  await page.goto(`${ui.server.baseUrl}/namespaces/${ns}/flags/unused/usage`);
  await page.getByText('No evaluations in this range').waitFor();
  await totalReads(page, 0);
  t.is(await page.getByRole('definition').getByText('never', { exact: true }).count(), 1, 'last evaluated: never');
  await close();
});

test.serial('the Usage tab when the service has no usage (404, 501) or fails (500)', async (t) => {
  const ns = 'older-server';
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  await splitFlag(t, ns, 'colour');

  for (const status of [404, 501]) {
    const { page, close } = await open(t, `/namespaces/${ns}/flags`);
    await page.route('**/internal/v1/analytics/**', (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ code: status === 404 ? 5 : 12, message: 'not here' }) }));
    await page.route(`**/api/v1/namespaces/${ns}/**usage*`, (route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ code: status === 404 ? 5 : 12, message: 'not here' }) }));
    await page.reload();
    await page.getByText('1 flag · usage is not available on this server').waitFor();
    t.true(await page.getByLabel('Stale only').isDisabled(), `${status}: nothing to filter by`);
    await page.getByRole('link', { name: 'colour' }).click();
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage is not available' }).waitFor();
    t.is(await page.getByRole('alert').count(), 0, `${status}: not an error`);
    await close();
  }

  const { page, close } = await open(t, `/namespaces/${ns}/flags/colour/usage`);
  await page.route('**/internal/v1/analytics/**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 13, message: 'the database is unavailable' }) }));
  await page.reload();
  await page.getByRole('alert').getByText('the database is unavailable').waitFor({ timeout: ARRIVAL_MS });
  t.true(await page.getByRole('heading', { name: 'Evaluations' }).isVisible(), 'the tab stays, the error inline');
  await page.unroute('**/internal/v1/analytics/**');
  await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('alert').waitFor({ state: 'detached' });
  await totalReads(page, 0);
  await close();
});

test.serial('the flags list: last evaluated or "never", ordered by it, statuses, and "Stale only" over a window in the address', async (t) => {
  const ns = 'usage-list';
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  await splitFlag(t, ns, 'used-a');
  await halfFlag(t, ns, 'used-b');
  for (const key of ['idle-c', 'idle-d']) await create(t, `/api/v1/namespaces/${ns}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: false });

  // Within the default window (30 days) every flag is new, so none is stale.
  const { page, close } = await open(t, `/namespaces/${ns}/flags`);
  await page.getByRole('link', { name: 'idle-c' }).waitFor();
  const row = (key: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: key, exact: true }) });
  await row('idle-c').getByText('never', { exact: true }).waitFor();
  t.is(await page.getByLabel('Usage window').inputValue(), '720h', 'the service’s default window');
  t.is(await row('idle-c').getByText('New', { exact: true }).getAttribute('title'), 'New: created in the last 30 days, so too young to judge.');
  await page.getByLabel('Stale only').check();
  await page.waitForURL(`**/namespaces/${ns}/flags?stale=1`);
  await page.getByText('No flags match').waitFor();

  // A window of 10 seconds, once the flags are older than that: evaluated flags are active, the others stale.
  const window = 10;
  await delay((window + 1) * 1000);
  const servedA = await evaluateVariant(t, ns, 'used-a', users(12));
  const servedB = await evaluateBoolean(t, ns, 'used-b', users(9));
  t.is(Object.keys(servedA).length, 2, 'used-a served two values');
  t.is(Object.keys(servedB).length, 2, 'used-b served two values');
  for (let i = 0; i < 100; i++) {
    const flags = await listing(ns, `${window}s`);
    if (flags.filter((f) => f.flagKey.startsWith('used-')).every((f) => f.evaluations > 0)) break;
    await delay(200);
  }
  await page.goto(`${ui.server.baseUrl}/namespaces/${ns}/flags?stale=1&window=${window}s`);
  await page.getByRole('link', { name: 'idle-c' }).waitFor();
  t.deepEqual(await keysOnceThey(page, same(['idle-c', 'idle-d'])), ['idle-c', 'idle-d'], 'exactly the flags not evaluated');
  t.is(await page.getByLabel('Usage window').inputValue(), `${window}s`);
  t.is(await row('idle-d').getByText('Inactive', { exact: true }).getAttribute('title'), `Inactive: not evaluated in the last ${window} seconds. Stale: a candidate for removal.`);
  await page.getByText('2 of 4 flags').waitFor();

  await page.getByLabel('Stale only').uncheck();
  await page.waitForURL(`**/namespaces/${ns}/flags?window=${window}s`);
  t.deepEqual(await keysOnceThey(page, same(['idle-c', 'idle-d', 'used-a', 'used-b'])), ['idle-c', 'idle-d', 'used-a', 'used-b']);
  t.is(await row('used-a').locator('.last-evaluated-cell time').textContent(), 'just now');
  t.regex((await row('used-a').locator('.last-evaluated-cell time').getAttribute('title')) ?? '', / UTC$/);
  t.is(await row('used-b').getByText('Active', { exact: true }).count(), 1);
  t.is(await row('idle-d').getByText('never', { exact: true }).count(), 1);

  // Ordered by the last evaluation: the heading switches between most and least recent first.
  // The address changes first; the list follows in a transition, with the heading's aria-sort.
  const sorted = (order: string) => page.locator(`th[aria-sort="${order}"]`, { hasText: 'Last evaluated' }).waitFor();
  await page.getByRole('button', { name: 'Last evaluated' }).click();
  await page.waitForURL(/sort=evaluated(&|$)/);
  await sorted('descending');
  t.deepEqual((await keysOnceThey(page, (keys) => same(['idle-c', 'idle-d'])(keys.slice(2)))).slice(2), ['idle-c', 'idle-d'], 'never evaluated last');
  await page.getByRole('button', { name: 'Last evaluated' }).click();
  await page.waitForURL(/sort=evaluated-oldest/);
  await sorted('ascending');
  t.deepEqual((await keysOnceThey(page, (keys) => same(['idle-c', 'idle-d'])(keys.slice(0, 2)))).slice(0, 2), ['idle-c', 'idle-d'], 'never evaluated first');
  t.is(await page.getByLabel('Sort').inputValue(), 'evaluated-oldest', 'the sort menu agrees');
  await screenshot(page, 'flags-usage');

  // Back to a window from the menu: the address keeps it.
  await page.getByLabel('Usage window').selectOption({ label: 'Last 7 days' });
  await page.waitForURL(/window=168h/);
  await row('used-a').getByText('New', { exact: true }).waitFor();
  await close();

  // On a phone, light and dark: the list with its usage column and the Usage tab, nothing wider than the screen.
  for (const colorScheme of ['light', 'dark'] as const) {
    const phone = await open(t, `/namespaces/${ns}/flags?window=${window}s`, { viewport: { width: 390, height: 844 }, colorScheme });
    await phone.page.getByRole('link', { name: 'idle-c' }).waitFor();
    t.true(await noSideways(phone.page), `${colorScheme}: no sideways scrolling`);
    const never = phone.page.getByRole('row').filter({ hasText: 'idle-d' }).getByText('never');
    t.true(await never.waitFor({ timeout: 10_000 }).then(() => true, () => false), `${colorScheme}: the usage column is on screen`);
    await screenshot(phone.page, `flags-usage-phone-${colorScheme}`);
    await phone.page.goto(`${ui.server.baseUrl}/namespaces/${ns}/flags/used-a/usage`);
    await totalReads(phone.page, 12);
    await phone.page.getByRole('img', { name: /: 12 in all$/ }).waitFor();
    t.true(await noSideways(phone.page), `${colorScheme}: the Usage tab fits`);
    t.true(await phone.page.getByRole('list', { name: 'Values served' }).isVisible());
    await screenshot(phone.page, `flag-usage-phone-${colorScheme}`, { fullPage: true });
    await phone.close();
  }
});
