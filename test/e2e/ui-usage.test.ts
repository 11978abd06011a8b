/**
 * What flags are used for, in a real Chromium against a real `ensign server` that ships its
 * evaluation counts every second: a flag's Usage tab (the total and the split of a range by value
 * and by reason, the last evaluation, the chart, the range in the address, pausing the refresh), its
 * states when the service has no usage or fails, and the flags list's "Last evaluated" column, its
 * order, the status badges and "Stale only" over a window given in the address, and why it finds
 * nothing while every flag is new; on a desktop and on a 390×844 screen, light and dark. Each test
 * seeds a namespace of its own through the API; they run one after another. Every read of the page
 * waits for what it checks: the page follows the address and the counts on its own time.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { eventually } from '@ensign/testkit';
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

/** The rows of one of the Usage tab's splits (`Values served` or `Reasons`), as a screen reader names them: `blue: 7 (58.3%)`. */
const splitRows = (page: Page, list = 'Values served'): Promise<string[]> =>
  page
    .getByRole('list', { name: list })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));

/** What `read` answers once `ok` holds of it (read again until then, ~10 s); the last answer when it never does. */
async function settled<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  let value = await read();
  if (!ok(value)) await eventually(async () => ok((value = await read())));
  return value;
}
const same = <T>(want: T) => (value: T): boolean => JSON.stringify(value) === JSON.stringify(want);
/** What `read` answers once it is `want`; the last answer when it never is. */
const reads = <T>(read: () => Promise<T>, want: T): Promise<T> => settled(read, same(want));

/** Waits until the Usage tab's total reads `count`. */
const totalReads = (page: Page, count: number): Promise<void> => page.locator('.usage-total').getByText(count.toLocaleString('en'), { exact: true }).waitFor({ timeout: ARRIVAL_MS });

/** Whether the page fits its width, once it does (a page still laying out may not yet). */
const noSideways = (page: Page): Promise<boolean> => settled(() => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), (fits) => fits);

/** The keys of the flags list's rows, top to bottom. */
const listedKeys = (page: Page): Promise<string[]> => page.locator('.flags-table tbody tr').getByRole('link').allTextContents();

/** The keys listed once `expected` holds of them (the list follows the address in a transition); the last ones read when it never does. */
const keysOnceThey = (page: Page, expected: (keys: string[]) => boolean): Promise<string[]> => settled(() => listedKeys(page), expected);

/** The usage listing of a namespace over `window`, as the API answers it. */
async function listing(ns: string, window: string): Promise<Array<{ flagKey: string; createdAt: string; evaluations: number; status: string; stale: boolean }>> {
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
  await page.getByRole('link', { name: 'Usage' }).and(page.locator('[aria-current="page"]')).waitFor();
  await totalReads(page, 12);
  const split = [`blue: ${served['blue']} (${share(served['blue']!, 12)})`, `green: ${served['green']} (${share(served['green']!, 12)})`];
  t.deepEqual(await reads(() => splitRows(page), split), split);
  const last = page.getByRole('definition').filter({ has: page.locator('time') }).locator('time');
  t.is(await reads(() => last.textContent(), 'just now'), 'just now');
  t.regex(await settled(async () => (await last.getAttribute('title')) ?? '', (title) => title !== ''), /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/, 'the exact time on hover');
  await page.getByRole('img', { name: 'Evaluations per minute over the last 30 minutes: 12 in all' }).waitFor();
  await page.getByText('No evaluations in this range').waitFor({ state: 'detached' });
  await screenshot(page, 'flag-usage');

  // A longer range: its own step, kept in the address, the same evaluations.
  await page.getByLabel('Range').selectOption({ label: 'Last 1 day' });
  await page.waitForURL('**/flags/colour/usage?range=1d');
  await page.getByRole('img', { name: 'Evaluations per 30 minutes over the last 1 day: 12 in all' }).waitFor();
  await page.reload();
  t.is(await reads(() => page.getByLabel('Range').inputValue(), '1d'), '1d', 'the range survives a reload');
  await totalReads(page, 12);

  // Paused, new evaluations wait; resumed, they show.
  await page.getByRole('button', { name: 'Pause updates' }).click();
  await page.getByRole('button', { name: 'Resume updates' }).waitFor();
  await page.getByText('Paused', { exact: true }).waitFor();
  await evaluateVariant(t, ns, 'colour', users(3, 'late'), served);
  t.true(await eventually(async () => (await ui.api.get(`/api/v1/namespaces/${ns}/flags/colour/usage`)).body.evaluations === 15), 'the late counts are stored');
  // Longer than the tab's refresh interval (5 s): a refresh would have shown them by now.
  await delay(7_000);
  t.is(await page.locator('.usage-total').textContent(), '12', 'nothing refreshed while paused');
  await page.getByRole('button', { name: 'Resume updates' }).click();
  await totalReads(page, 15);
  const later = [`blue: ${served['blue']} (${share(served['blue']!, 15)})`, `green: ${served['green']} (${share(served['green']!, 15)})`];
  t.deepEqual(await reads(() => splitRows(page), later), later);
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
  const split = [`true: ${served['true']} (${share(served['true']!, 9)})`, `false: ${served['false']} (${share(served['false']!, 9)})`];
  t.deepEqual(await reads(() => splitRows(page), split), split);

  await page.goto(`${ui.server.baseUrl}/namespaces/${ns}/flags/unused/usage`);
  await page.getByText('No evaluations in this range').waitFor();
  await totalReads(page, 0);
  await page.getByRole('definition').getByText('never', { exact: true }).waitFor();
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
    await page.getByLabel('Stale only').and(page.locator(':disabled')).waitFor();
    await page.getByRole('link', { name: 'colour' }).click();
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage is not available' }).waitFor();
    await page.getByRole('alert').waitFor({ state: 'detached' });
    await close();
  }

  const { page, close } = await open(t, `/namespaces/${ns}/flags/colour/usage`);
  await page.route('**/internal/v1/analytics/**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 13, message: 'the database is unavailable' }) }));
  await page.reload();
  await page.getByRole('alert').getByText('the database is unavailable').waitFor({ timeout: ARRIVAL_MS });
  await page.getByRole('heading', { name: 'Evaluations' }).waitFor();
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
  t.is(await reads(() => page.getByLabel('Usage window').inputValue(), '720h'), '720h', 'the service’s default window');
  await row('idle-c').getByTitle('New: created in the last 30 days, so too young to judge.').getByText('New', { exact: true }).waitFor();
  await page.getByLabel('Stale only').check();
  await page.waitForURL(`**/namespaces/${ns}/flags?stale=1`);
  await page.getByRole('heading', { name: 'No stale flags yet' }).waitFor();

  // A window of 10 seconds, once the flags are older than that: evaluated flags are active, the others stale.
  const window = 10;
  await delay((window + 1) * 1000);
  const servedA = await evaluateVariant(t, ns, 'used-a', users(12));
  const servedB = await evaluateBoolean(t, ns, 'used-b', users(9));
  t.is(Object.keys(servedA).length, 2, 'used-a served two values');
  t.is(Object.keys(servedB).length, 2, 'used-b served two values');
  const counted = async () => (await listing(ns, `${window}s`)).filter((f) => f.flagKey.startsWith('used-')).every((f) => f.evaluations > 0);
  t.true(await eventually(counted), 'the evaluations are counted');
  await page.goto(`${ui.server.baseUrl}/namespaces/${ns}/flags?stale=1&window=${window}s`);
  await page.getByRole('link', { name: 'idle-c' }).waitFor();
  t.deepEqual(await keysOnceThey(page, same(['idle-c', 'idle-d'])), ['idle-c', 'idle-d'], 'exactly the flags not evaluated');
  t.is(await reads(() => page.getByLabel('Usage window').inputValue(), `${window}s`), `${window}s`);
  await row('idle-d').getByTitle(`Inactive: not evaluated in the last ${window} seconds. Stale: a candidate for removal.`).getByText('Inactive', { exact: true }).waitFor();
  await page.getByText('2 of 4 flags').waitFor();

  await page.getByLabel('Stale only').uncheck();
  await page.waitForURL(`**/namespaces/${ns}/flags?window=${window}s`);
  t.deepEqual(await keysOnceThey(page, same(['idle-c', 'idle-d', 'used-a', 'used-b'])), ['idle-c', 'idle-d', 'used-a', 'used-b']);
  const usedA = row('used-a').locator('.last-evaluated-cell time');
  t.is(await reads(() => usedA.textContent(), 'just now'), 'just now');
  t.regex(await settled(async () => (await usedA.getAttribute('title')) ?? '', (title) => title !== ''), / UTC$/);
  await row('used-b').getByText('Active', { exact: true }).waitFor();
  await row('idle-d').getByText('never', { exact: true }).waitFor();

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
  t.is(await reads(() => page.getByLabel('Sort').inputValue(), 'evaluated-oldest'), 'evaluated-oldest', 'the sort menu agrees');
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
    await phone.page.getByRole('list', { name: 'Values served' }).waitFor();
    await screenshot(phone.page, `flag-usage-phone-${colorScheme}`, { fullPage: true });
    await phone.close();
  }
});

/** The four ways the new tests look at a page: a desktop and a phone, each light and dark. */
const SCREENS: ReadonlyArray<{ name: string; options: PageOptions }> = [
  { name: 'desktop-light', options: { viewport: { width: 1280, height: 800 }, colorScheme: 'light' } },
  { name: 'phone-dark', options: { viewport: { width: 390, height: 844 }, colorScheme: 'dark' } },
  { name: 'desktop-dark', options: { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' } },
  { name: 'phone-light', options: { viewport: { width: 390, height: 844 }, colorScheme: 'light' } },
];

/** An instant as the UI writes it to the minute in UTC: `2026-06-10 14:03 UTC`. */
const minuteUtc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const DAY_MS = 86_400_000;

test.serial('"Stale only" while every flag is new says how many are and when the first stops being new, not only that nothing matches', async (t) => {
  const ns = 'usage-fresh';
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  for (const key of ['fresh-a', 'fresh-b', 'fresh-c']) await create(t, `/api/v1/namespaces/${ns}/flags`, { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  const created = new Map<string, number>((await listing(ns, '720h')).map((f) => [f.flagKey, Date.parse(f.createdAt)]));
  const everyFlag = 'All 3 flags are new: created in the last 30 days, too young to judge.';
  const firstOne = `The first of them, “fresh-a”, stops being new on ${minuteUtc(created.get('fresh-a')! + 30 * DAY_MS)} (in 30 days).`;

  for (const { name, options } of SCREENS) {
    const { page, close } = await open(t, `/namespaces/${ns}/flags?stale=1`, options);
    await page.getByRole('heading', { name: 'No stale flags yet' }).waitFor();
    await page.getByText(`${everyFlag} ${firstOne}`, { exact: true }).waitFor();
    await page.getByText('None of the 3 flags matches the search and filters.').waitFor({ state: 'detached' });
    t.true(await noSideways(page), `${name}: no sideways scrolling`);
    await screenshot(page, `flags-none-stale-${name}`);

    if (name === 'desktop-light') {
      // Searched down to one flag, it speaks of that flag alone.
      await page.getByLabel('Search flags').fill('fresh-b');
      const one = `The flag that matches the search and filters is new: created in the last 30 days, too young to judge. “fresh-b” stops being new on ${minuteUtc(created.get('fresh-b')! + 30 * DAY_MS)} (in 30 days).`;
      await page.getByText(one, { exact: true }).waitFor();
      // Searched down to none, there is nothing to explain.
      await page.getByLabel('Search flags').fill('nothing-like-it');
      await page.getByText('None of the 3 flags matches the search and filters.').waitFor();
      await page.getByRole('heading', { name: 'No flags match' }).waitFor();
    }
    await close();
  }
});

test.serial('the Usage tab splits the range by reason as well as by value, in plain words', async (t) => {
  const ns = 'usage-reasons';
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  // Half the entities match the boolean flag's rollout (false); the others fall through to its default (true).
  await halfFlag(t, ns, 'half');
  const halves = await evaluateBoolean(t, ns, 'half', users(10));
  t.deepEqual(Object.keys(halves).sort(), ['false', 'true'], 'both values were served');
  // Every entity matches the variant flag's rule until it is disabled.
  await splitFlag(t, ns, 'colour');
  const matched = await evaluateVariant(t, ns, 'colour', users(4));
  const off = await ui.api.put(`/api/v1/namespaces/${ns}/flags/colour`, { key: 'colour', name: 'colour', enabled: false });
  t.is(off.status, 200, off.text);
  t.deepEqual(await evaluateVariant(t, ns, 'colour', users(2, 'late')), { '': 2 }, 'a disabled flag serves no variant');

  const row = (label: string, count: number, total: number) => `${label}: ${count} (${share(count, total)})`;
  const pages = [
    {
      flag: 'half',
      total: 10,
      reasons: [row('Matched a rollout', halves['false']!, 10), row('No rollout matched: the flag’s default value applies', halves['true']!, 10)],
      values: [row('true', halves['true']!, 10), row('false', halves['false']!, 10)],
    },
    {
      flag: 'colour',
      total: 6,
      reasons: [row('Matched a rule', 4, 6), row('No rule matched, and the flag has no default variant', 0, 6), row('The flag is disabled', 2, 6)],
      values: [row('blue', matched['blue'] ?? 0, 6), row('green', matched['green'] ?? 0, 6), row('No variant', 2, 6)],
    },
  ];
  for (const { name, options } of SCREENS) {
    for (const { flag, total, reasons, values } of pages) {
      const { page, close } = await open(t, `/namespaces/${ns}/flags/${flag}/usage`, options);
      await totalReads(page, total);
      await page.getByRole('heading', { name: 'By reason' }).waitFor();
      t.deepEqual(await reads(() => splitRows(page, 'Reasons'), reasons), reasons, `${name}, ${flag}: the split by reason`);
      t.deepEqual(await reads(() => splitRows(page), values), values, `${name}, ${flag}: the split by value`);
      t.true(await noSideways(page), `${name}, ${flag}: no sideways scrolling`);
      await screenshot(page, `flag-usage-reasons-${flag}-${name}`, { fullPage: true });
      await close();
    }
  }
});
