/**
 * The jump bar (Ctrl-K / ⌘K) in a real Chromium against a real `ensign server`: it opens from
 * anywhere (also from another text field) but not over another dialog, keeps every key typed at a
 * key every 2 ms without a request per key, and opens a flag, a segment, a page or another
 * namespace (keeping the kind of page) with the arrows and Enter or a click; Escape, Ctrl-K again
 * and a click outside close it and the focus goes back; a list that cannot be loaded says so and
 * can be retried; on a phone the top bar's search icon opens it, fitting the screen, light and dark.
 */
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);
const NS = 'jump';
const OTHER = 'jump-elsewhere';
const PHONE = { width: 390, height: 844 };

/** Seeds through the API, failing on anything but a 200. */
async function post(path: string, body: unknown): Promise<void> {
  const response = await ui.api.post(path, body);
  if (response.status !== 200) throw new Error(`${path}: ${response.text}`);
}

test.before(async () => {
  await post('/api/v1/namespaces', { key: NS, name: 'Jump bar', description: '' });
  await post('/api/v1/namespaces', { key: OTHER, name: 'Somewhere else', description: '' });
  const flags = `/api/v1/namespaces/${NS}/flags`;
  await post(flags, { key: 'checkout-express', name: 'Express checkout', description: '', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  await post(flags, { key: 'checkout-redesign', name: 'Checkout redesign', description: '', type: 'VARIANT_FLAG_TYPE', enabled: true });
  await post(flags, { key: 'dark-banner', name: 'Dark banner', description: '', type: 'BOOLEAN_FLAG_TYPE', enabled: false });
  for (const [key, name] of [
    ['beta-testers', 'Beta testers'],
    ['internal-staff', 'Internal staff'],
  ]) {
    await post(`/api/v1/namespaces/${NS}/segments`, { key, name, description: '', matchType: 'ALL_MATCH_TYPE' });
  }
  await post(`/api/v1/namespaces/${OTHER}/flags`, { key: 'only-elsewhere', name: 'Only elsewhere', description: '', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
});

const open = (t: ExecutionContext, path: string, options?: PageOptions & { allowConsoleErrors?: RegExp[] }) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, options);

/** The bar's parts on `page`. */
function bar(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Search' });
  const field = dialog.getByRole('combobox', { name: 'Search for a flag, segment, page or namespace' });
  const listbox = dialog.getByRole('listbox', { name: 'Results' });
  return {
    dialog,
    field,
    listbox,
    /** The options of one group ("Flags", "Segments", "Pages", "Namespaces"). */
    group: (name: string) => listbox.getByRole('group', { name }).getByRole('option'),
    option: (text: string) => listbox.getByRole('option').filter({ hasText: text }),
    selected: listbox.locator('[role="option"][aria-selected="true"]'),
  };
}

/** The selected option's text if the combobox points at it (`aria-activedescendant`), else what is amiss. */
async function selectedText(page: Page): Promise<string> {
  const { field, selected } = bar(page);
  const count = await selected.count();
  if (count !== 1) return `${count} options selected`;
  const id = await selected.getAttribute('id');
  const active = await field.getAttribute('aria-activedescendant');
  return active === id ? ((await selected.textContent()) ?? '') : `aria-activedescendant is ${active}, not the selected option ${id}`;
}

test.serial('Ctrl-K opens the bar from a text field; fast typing keeps every key without a request; ArrowDown and Enter open the flag', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  await page.getByRole('link', { name: 'checkout-redesign' }).waitFor();
  const search = page.getByLabel('Search flags');
  await search.click();
  await page.keyboard.press('Control+K');
  const { dialog, field, group, option } = bar(page);
  await dialog.waitFor();
  await expect(field, 'the search field of the bar has the focus').toBeFocused();
  await expect(field).toHaveAttribute('aria-expanded', 'true');
  // The lists are there before typing: from then on, nothing is asked per key.
  await option('checkout-redesign').waitFor();
  await option('beta-testers').waitFor();
  const requests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) requests.push(request.url());
  });
  for (let round = 0; round < 3; round++) {
    await field.fill('');
    await field.pressSequentially('checkout', { delay: 2 });
    await expect(field, `round ${round + 1}: every key kept`).toHaveValue('checkout');
  }
  t.deepEqual(requests, [], 'no request while typing');
  await expect(search, 'nothing typed reached the field under the bar').toHaveValue('');

  // Both checkout flags, the shorter key first and selected; no other group matches.
  await group('Flags').nth(1).waitFor();
  await expect(group('Flags').locator('.jump-option-key')).toHaveText(['checkout-express', 'checkout-redesign']);
  await expect(bar(page).listbox.getByRole('group'), 'only the flags match').toHaveCount(1);
  await expect.poll(() => selectedText(page)).toMatch(/checkout-express/);
  await screenshot(page, 'jump-bar-flags-light');
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => selectedText(page), 'ArrowDown selects the next').toMatch(/checkout-redesign/);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => selectedText(page), 'and wraps around').toMatch(/checkout-express/);
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => selectedText(page), 'ArrowUp goes back').toMatch(/checkout-redesign/);
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/namespaces/${NS}/flags/checkout-redesign`);
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('heading', { name: 'Checkout redesign' }).first().waitFor();
  await close();
});

test.serial('a segment and a page ("Console") are found and opened; a disabled flag says so', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  const { dialog, field, group, option } = bar(page);
  await page.getByRole('link', { name: 'checkout-redesign' }).waitFor();

  await page.keyboard.press('Control+K');
  await field.pressSequentially('beta', { delay: 2 });
  await group('Segments').filter({ hasText: 'beta-testers' }).waitFor();
  await expect.poll(() => selectedText(page)).toMatch(/Beta testers/);
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/namespaces/${NS}/segments/beta-testers`);
  await dialog.waitFor({ state: 'hidden' });

  await page.keyboard.press('Control+K');
  await field.pressSequentially('Console', { delay: 2 });
  await group('Pages').filter({ hasText: 'Console' }).waitFor();
  await expect.poll(() => selectedText(page), 'the page named so comes first').toMatch(/^Console/);
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/namespaces/${NS}/console`);
  await dialog.waitFor({ state: 'hidden' });

  // A click opens an option too; a disabled flag is marked.
  await page.keyboard.press('Control+K');
  await field.pressSequentially('dark', { delay: 2 });
  const banner = option('dark-banner');
  await banner.waitFor();
  await expect(banner).toHaveText(/Disabled/);
  await banner.click();
  await page.waitForURL(`**/namespaces/${NS}/flags/dark-banner`);
  await close();
});

test.serial('switching namespace from the bar keeps the kind of page, and the bar then searches that namespace', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/segments`);
  const { dialog, field, group, option } = bar(page);
  await page.getByText('beta-testers', { exact: true }).first().waitFor();
  await page.keyboard.press('Control+K');
  await option(NS).filter({ hasText: 'Current' }).waitFor();
  await field.pressSequentially('somewhere', { delay: 2 });
  await group('Namespaces').filter({ hasText: OTHER }).waitFor();
  await expect.poll(() => selectedText(page)).toMatch(/Somewhere else/);
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/namespaces/${OTHER}/segments`);
  await dialog.waitFor({ state: 'hidden' });

  await page.keyboard.press('Control+K');
  await field.pressSequentially('only', { delay: 2 });
  await option('only-elsewhere').waitFor();
  await field.fill('checkout');
  await dialog.getByText('Nothing matches “checkout”. Try part of a flag or segment key, or the name of a page.').waitFor();
  await expect(bar(page).listbox.getByRole('option'), 'the first namespace’s flags are not offered').toHaveCount(0);
  await expect(field, 'nothing is selected').not.toHaveAttribute('aria-activedescendant');
  await page.keyboard.press('Enter');
  t.true(page.url().endsWith(`/namespaces/${OTHER}/segments`), 'Enter with nothing to open stays');
  await close();
});

test.serial('Escape, Ctrl-K again and a click outside close the bar and the focus returns; Meta+K opens it; not over another dialog', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  const { dialog, field } = bar(page);
  const search = page.getByLabel('Search flags');
  await page.getByRole('link', { name: 'checkout-redesign' }).waitFor();
  await search.click();
  await page.keyboard.press('Control+K');
  await dialog.waitFor();
  await field.pressSequentially('beta', { delay: 2 });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await expect(search, 'Escape gives the focus back to the field it came from').toBeFocused();
  t.true(page.url().endsWith(`/namespaces/${NS}/flags`), 'nothing was opened');

  await page.keyboard.press('Meta+K');
  await dialog.waitFor();
  await expect(field, 'each opening starts empty').toHaveValue('');
  // A press on the backdrop, below the bar.
  await page.mouse.click(640, 780);
  await dialog.waitFor({ state: 'hidden' });
  await expect(search, 'a click outside gives it back too').toBeFocused();

  const button = page.getByRole('button', { name: 'Search', exact: true });
  await button.click();
  await dialog.waitFor();
  await expect(field).toBeFocused();
  await page.keyboard.press('Control+K');
  await dialog.waitFor({ state: 'hidden' });
  await expect(button, 'Ctrl-K again closes it, back on the Search button').toBeFocused();

  // Over another dialog Ctrl-K does nothing: the keys typed next go to that dialog.
  await page.getByRole('button', { name: 'New flag' }).click();
  const newFlag = page.getByRole('dialog', { name: 'New flag' });
  await newFlag.getByLabel('Name').waitFor();
  await newFlag.getByLabel('Name').click();
  await page.keyboard.press('Control+K');
  await page.keyboard.type('abc');
  await expect(newFlag.getByLabel('Name'), 'the other dialog keeps the keys').toHaveValue('abc');
  await expect(dialog, 'the bar did not open').toBeHidden();
  await close();
});

test.serial('a list that cannot be loaded says so, the rest still works, and Try again loads it', async (t) => {
  const { page, context, close } = await open(t, `/namespaces/${NS}/flags`, { allowConsoleErrors: [/status of 503/] });
  await page.getByRole('link', { name: 'checkout-redesign' }).waitFor();
  const segmentsPath = `/api/v1/namespaces/${NS}/segments`;
  let refused = 0;
  let down = true;
  await context.route(
    (url) => url.pathname === segmentsPath,
    (route) => {
      if (!down) return route.continue();
      refused++;
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 14, message: 'the store is unavailable' }) });
    },
  );
  await page.keyboard.press('Control+K');
  const { dialog, field, option } = bar(page);
  const alert = dialog.getByRole('alert').filter({ hasText: 'Segments could not be loaded' });
  await alert.waitFor();
  t.true(refused >= 1);
  await field.pressSequentially('express', { delay: 2 });
  await option('checkout-express').waitFor();
  await expect(dialog.getByRole('option'), 'the flags are still searched').toHaveCount(1);

  down = false;
  await field.fill('beta');
  await alert.getByRole('button', { name: 'Try again' }).click();
  await option('beta-testers').waitFor();
  await alert.waitFor({ state: 'detached' });
  await close();
});

/** The page's width against the window's. */
const widths = (page: Page) => page.evaluate<{ scrollWidth: number; innerWidth: number }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');

for (const scheme of ['light', 'dark'] as const) {
  test.serial(`on a phone the top bar's search icon opens the bar, which fits the screen (${scheme})`, async (t) => {
    const { page, close } = await open(t, `/namespaces/${NS}/flags`, { viewport: PHONE, colorScheme: scheme });
    const button = page.getByRole('button', { name: 'Search', exact: true });
    await page.getByRole('link', { name: 'checkout-redesign' }).waitFor();
    const icon = await button.boundingBox();
    t.true(icon !== null && icon.width <= 44 && icon.x + icon.width <= PHONE.width, `an icon button within the bar: ${JSON.stringify(icon)}`);
    let { scrollWidth, innerWidth } = await widths(page);
    t.true(scrollWidth <= innerWidth, `the top bar fits: ${scrollWidth}px in ${innerWidth}px`);

    await button.click();
    const { dialog, field, option } = bar(page);
    await dialog.waitFor();
    await expect(field).toBeFocused();
    await field.pressSequentially('checkout-redesign', { delay: 2 });
    await option('checkout-redesign').waitFor();
    ({ scrollWidth, innerWidth } = await widths(page));
    t.true(scrollWidth <= innerWidth, `no sideways scroll with the bar open: ${scrollWidth}px in ${innerWidth}px`);
    const box = await dialog.locator('.jump-panel').boundingBox();
    t.true(box !== null && box.x >= 0 && box.x + box.width <= PHONE.width, `the bar is within the screen: ${JSON.stringify(box)}`);
    await field.fill('');
    await option('Console').waitFor();
    await screenshot(page, `jump-bar-phone-${scheme}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect(button, 'the focus is back on the icon').toBeFocused();

    // Tapping an option opens it.
    await button.click();
    await field.pressSequentially('internal', { delay: 2 });
    await option('internal-staff').click();
    await page.waitForURL(`**/namespaces/${NS}/segments/internal-staff`);
    await dialog.waitFor({ state: 'hidden' });
    await close();
  });
}

test.serial('on a desktop in the dark theme the bar shows the shortcut and its groups', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`, { colorScheme: 'dark' });
  const button = page.getByRole('button', { name: 'Search', exact: true });
  await button.waitFor();
  await expect(button, 'the button shows the shortcut').toHaveText(/Search…\s*(Ctrl K|⌘K)/);
  await expect(button).toHaveAttribute('aria-keyshortcuts', 'Control+K Meta+K');
  await page.keyboard.press('Control+K');
  const { group } = bar(page);
  for (const name of ['Flags', 'Segments', 'Pages', 'Namespaces']) await group(name).first().waitFor();
  const pages = async () => (await group('Pages').allTextContents()).map((text) => text.replace(` in ${NS}`, '').replace(`in ${NS}`, ''));
  await expect.poll(pages).toEqual(['Flags', 'Segments', 'Console', 'Activity', 'Change requests', 'Namespaces', 'API tokens', 'Preferences']);
  await screenshot(page, 'jump-bar-desktop-dark');
  await close();
});
