/**
 * The UI on a phone (390×844) and the frame on a desktop, in a real Chromium: every main page fits
 * the screen's width in light and dark (long keys break or shorten, tables stack or scroll in their
 * own box), the menu drawer has a backdrop and keeps the focus while open and holds the theme
 * switch; on a desktop the sidebar stays in view while the page scrolls and the namespace switcher
 * shows long names whole or with the full name in a tooltip.
 */
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test, { config: { authentication: { required: false, methods: { token: { enabled: true } } } } });

const PHONE = { width: 390, height: 844 };
const NS = 'regional-storefront-experiments-for-the-european-market';
const NS_NAME = 'Regional storefront experiments for the European market';
const FLAG = 'checkout-experience-for-returning-customers-with-saved-cards';
const BOOLEAN_FLAG = 'show-the-redesigned-order-confirmation-page-to-everyone';
const SEGMENT = 'returning-customers-with-saved-payment-methods-in-europe';

async function ok<T = Record<string, string>>(t: ExecutionContext, response: Promise<{ status: number; text: string; body: unknown }>, label: string): Promise<T> {
  const res = await response;
  t.is(res.status, 200, `${label}: ${res.text}`);
  return res.body as T;
}

test.serial.before('a namespace with a long key, a flag with variants and rules, a segment with constraints, a token', async (t) => {
  const api = ui.api;
  const base = `/api/v1/namespaces/${NS}`;
  await ok(t, api.post('/api/v1/namespaces', { key: NS, name: NS_NAME, description: 'Checkout and storefront trials, one country at a time' }), 'namespace');
  await ok(t, api.post(`${base}/segments`, { key: SEGMENT, name: 'Returning customers with saved payment methods', matchType: 'ALL_MATCH_TYPE' }), 'segment');
  await ok(t, api.post(`${base}/segments/${SEGMENT}/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'customer_payment_method_on_file', operator: 'isoneof', value: '["visa-credit-card","mastercard-debit-card","american-express"]', description: 'Cards kept on file from an earlier order' }), 'constraint 1');
  await ok(t, api.post(`${base}/segments/${SEGMENT}/constraints`, { type: 'NUMBER_COMPARISON_TYPE', property: 'orders_in_the_last_twelve_months', operator: 'gte', value: '3', description: '' }), 'constraint 2');
  await ok(t, api.post(`${base}/flags`, { key: FLAG, name: 'Checkout experience for returning customers', description: 'The one-page checkout for customers whose card is on file', enabled: true, type: 'VARIANT_FLAG_TYPE' }), 'flag');
  const ids: string[] = [];
  for (const key of ['one-page-checkout-with-saved-card-preselected', 'classic-multi-step-checkout']) {
    const variant = await ok<{ id: string }>(t, api.post(`${base}/flags/${FLAG}/variants`, { key, name: key, description: '', attachment: '{"layout":"single-page","preselectSavedCard":true,"showExpressButtons":["apple-pay","google-pay"]}' }), key);
    ids.push(variant.id);
  }
  const rule = await ok<{ id: string }>(t, api.post(`${base}/flags/${FLAG}/rules`, { segmentKey: SEGMENT, rank: 1 }), 'rule');
  for (const id of ids) await ok(t, api.post(`${base}/flags/${FLAG}/rules/${rule.id}/distributions`, { variantId: id, rollout: 50 }), 'distribution');
  await ok(t, api.post(`${base}/flags`, { key: BOOLEAN_FLAG, name: 'Redesigned order confirmation', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }), 'boolean flag');
  await ok(t, api.post(`${base}/flags/${BOOLEAN_FLAG}/rollouts`, { rank: 1, description: 'Everyone who has ordered before', segment: { segmentKey: SEGMENT, value: true } }), 'rollout');
  await ok(t, api.post('/auth/v1/method/token', { name: 'storefront-deployment-pipeline-for-the-european-region', description: 'Used by the nightly deployment of the storefront' }), 'token');
});

/** A main page and what shows once its data is there. */
interface MainPage {
  name: string;
  path: string;
  ready: (page: Page) => Locator;
}

const MAIN_PAGES: MainPage[] = [
  { name: 'flags', path: `/namespaces/${NS}/flags`, ready: (p) => p.getByRole('link', { name: FLAG }) },
  { name: 'flag', path: `/namespaces/${NS}/flags/${FLAG}`, ready: (p) => p.getByRole('list', { name: 'Rules' }).getByRole('listitem').first() },
  { name: 'flag-usage', path: `/namespaces/${NS}/flags/${FLAG}/usage`, ready: (p) => p.locator('.card').first() },
  { name: 'flag-history', path: `/namespaces/${NS}/flags/${FLAG}/history`, ready: (p) => p.getByRole('list', { name: 'Changes' }) },
  { name: 'boolean-flag', path: `/namespaces/${NS}/flags/${BOOLEAN_FLAG}`, ready: (p) => p.getByText('Everyone who has ordered before') },
  { name: 'segments', path: `/namespaces/${NS}/segments`, ready: (p) => p.getByText(SEGMENT, { exact: true }) },
  { name: 'segment', path: `/namespaces/${NS}/segments/${SEGMENT}`, ready: (p) => p.getByText('customer_payment_method_on_file') },
  { name: 'segment-history', path: `/namespaces/${NS}/segments/${SEGMENT}/history`, ready: (p) => p.getByRole('list', { name: 'Changes' }) },
  { name: 'console', path: `/namespaces/${NS}/console?flag=${FLAG}`, ready: (p) => p.getByRole('heading', { name: 'Result' }) },
  { name: 'activity', path: `/namespaces/${NS}/activity`, ready: (p) => p.getByRole('list', { name: 'Changes' }) },
  { name: 'namespaces', path: '/settings/namespaces', ready: (p) => p.locator('main').getByText(NS, { exact: true }) },
  { name: 'tokens', path: '/settings/tokens', ready: (p) => p.getByText('storefront-deployment-pipeline-for-the-european-region') },
  { name: 'preferences', path: '/settings/preferences', ready: (p) => p.getByRole('radio', { name: 'UTC', exact: true }) },
];

const open = (t: ExecutionContext, path: string, options?: PageOptions) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, options);

/** The page's width against the window's, and the innermost elements that reach past the window's right edge outside a box that scrolls or clips. */
const OVERFLOW = `(() => {
  const past = (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5;
  const clipped = (el) => {
    for (let up = el.parentElement; up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return true;
    return false;
  };
  const wide = [...document.querySelectorAll('body *')]
    .filter((el) => past(el) && !clipped(el))
    .slice(-5)
    .map((el) => el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + ' → ' + Math.round(el.getBoundingClientRect().right) + 'px');
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, wide };
})()`;

const overflow = (page: Page) => page.evaluate<{ scrollWidth: number; innerWidth: number; wide: string[] }>(OVERFLOW);

for (const scheme of ['light', 'dark'] as const) {
  test.serial(`every main page fits a phone's width (${scheme})`, async (t) => {
    const { page, close } = await open(t, MAIN_PAGES[0]!.path, { viewport: PHONE, colorScheme: scheme });
    const tooWide: string[] = [];
    for (const main of MAIN_PAGES) {
      await page.goto(`${ui.server.baseUrl}${main.path}`);
      await main.ready(page).waitFor();
      await page.locator('main .loading').waitFor({ state: 'detached' });
      const { scrollWidth, innerWidth, wide } = await overflow(page);
      if (scrollWidth > innerWidth) tooWide.push(`${main.name}: page ${scrollWidth}px wide in a ${innerWidth}px window; ${wide.join(', ')}`);
      if (scheme === 'dark' || main.name.startsWith('flag')) await screenshot(page, `phone-${main.name}-${scheme}`, { fullPage: true });
    }
    t.deepEqual(tooWide, [], 'no page scrolls sideways');
    await close();
  });
}

test.serial('on a phone a long flag key breaks between its words, and is whole in a tooltip and the copy button', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`, { viewport: PHONE });
  const link = page.getByRole('link', { name: FLAG });
  await link.waitFor();
  await expect(link).toHaveAttribute('title', FLAG);
  // The lines the key is laid out in.
  const keyLines = await link.evaluate((el) => {
    const text = el.firstChild;
    const content = text?.textContent ?? '';
    const range = el.ownerDocument.createRange();
    const found: string[] = [];
    let top = Number.NaN;
    for (let i = 0; i < content.length; i++) {
      range.setStart(text!, i);
      range.setEnd(text!, i + 1);
      const y = range.getBoundingClientRect().top;
      if (y !== top) found.push('');
      top = y;
      found[found.length - 1] += content[i];
    }
    return found;
  });
  t.true(keyLines.length > 1, 'the key takes more than one line');
  for (const line of keyLines.slice(0, -1)) t.true(line.endsWith('-'), `"${line}" ends at a hyphen, not inside a word`);
  await close();

  const flagPage = await open(t, `/namespaces/${NS}/flags/${FLAG}`, { viewport: PHONE });
  await flagPage.page.getByRole('button', { name: 'Copy key' }).waitFor();
  const { scrollWidth, innerWidth } = await overflow(flagPage.page);
  t.true(scrollWidth <= innerWidth);
  await flagPage.close();
});

test.serial('on a phone the Variants table stacks: each variant is a block titled by its key with its other cells labelled, and its actions are on screen without scrolling its box', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/${FLAG}`, { viewport: PHONE });
  const table = page.locator('table.variants-table');
  const row = table.locator('tbody tr').filter({ hasText: 'one-page-checkout-with-saved-card-preselected' });
  const edit = row.getByRole('button', { name: 'Edit variant one-page-checkout-with-saved-card-preselected' });
  const remove = row.getByRole('button', { name: 'Delete variant one-page-checkout-with-saved-card-preselected' });
  await edit.waitFor();
  await expect(row, 'a variant is a block, not a table row').toHaveCSS('display', 'block');
  await expect.poll(() => row.locator('td[data-label]').evaluateAll((cells: any[]) => cells.map((cell) => cell.dataset.label))).toEqual(['Key', 'Name', 'Description', 'Attachment']);
  await expect(row.getByRole('cell').first(), 'the key is the block\'s title, without a label').toHaveText('one-page-checkout-with-saved-card-preselected');
  const scrollsSideways = () => table.evaluate((el: any) => el.closest('.table-wrap').scrollWidth > el.closest('.table-wrap').clientWidth);
  await expect.poll(scrollsSideways, 'the table\'s box does not scroll sideways').toBe(false);
  for (const button of [edit, remove]) {
    const box = await button.boundingBox();
    t.true(box !== null && box.x >= 0 && box.x + box.width <= PHONE.width, `${await button.getAttribute('aria-label')} is within the screen: ${JSON.stringify(box)}`);
  }
  // The attachment opens inside the block.
  await row.locator('.attachment-cell summary').click();
  await row.locator('.attachment-cell pre').waitFor();
  await expect.poll(scrollsSideways, 'nor with the attachment open').toBe(false);
  const { scrollWidth, innerWidth } = await overflow(page);
  t.true(scrollWidth <= innerWidth, `the page is ${scrollWidth}px wide in a ${innerWidth}px window`);
  await screenshot(page, 'phone-variants', { fullPage: true });
  await close();
});

/** Whether the element that has the focus is inside `locator`. */
const focusInside = (locator: Locator) => locator.evaluate((el) => el.contains(el.ownerDocument.activeElement));

test.serial('on a phone the menu drawer has a backdrop that closes it, Escape closes it, the focus stays inside, and it holds the theme switch', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`, { viewport: PHONE });
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = page.getByRole('button', { name: 'Menu' });
  const backdrop = page.locator('.drawer-backdrop');
  await menu.waitFor();
  await expect(nav, 'closed at first').toBeHidden();

  await menu.click();
  await nav.waitFor();
  await backdrop.waitFor();
  await expect.poll(() => focusInside(nav), 'opening moves the focus into the drawer').toBe(true);
  const theme = nav.getByLabel('Theme');
  await theme.waitFor();
  const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  const light = await background();
  await theme.selectOption('dark');
  await expect.poll(background, 'the theme switch in the drawer changes the colours').not.toBe(light);
  await screenshot(page, 'phone-drawer-dark');
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    await expect.poll(() => focusInside(nav), `Tab ${i + 1} keeps the focus in the drawer`).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  await expect.poll(() => focusInside(nav), 'Shift+Tab too').toBe(true);

  // A tap on the backdrop, right of the drawer.
  await page.mouse.click(360, 500);
  await nav.waitFor({ state: 'hidden' });
  await expect(backdrop, 'the backdrop goes with it').toBeHidden();
  await expect(menu, 'the focus is back on the menu button').toBeFocused();

  await menu.click();
  await nav.waitFor();
  await page.keyboard.press('Escape');
  await nav.waitFor({ state: 'hidden' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  await menu.click();
  await nav.getByRole('link', { name: 'Segments', exact: true }).click();
  await page.waitForURL(`**/namespaces/${NS}/segments`);
  await nav.waitFor({ state: 'hidden' });
  await close();
});

test.serial('on a desktop the sidebar stays in view while a long page scrolls', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/${FLAG}`, { viewport: { width: 1280, height: 500 } });
  await page.getByRole('list', { name: 'Rules' }).getByRole('listitem').first().waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' });
  const apiTokens = nav.getByRole('link', { name: 'API tokens' });
  const before = await apiTokens.boundingBox();
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await expect.poll(() => page.evaluate<boolean>('window.scrollY > 200'), 'the page did scroll').toBe(true);
  await expect.poll(() => apiTokens.boundingBox(), 'the navigation did not move').toEqual(before);
  const box = await nav.boundingBox();
  t.true(box !== null && box.y >= 0 && box.y + box.height <= 500 + 0.5, 'the sidebar is within the window');
  await screenshot(page, 'desktop-sticky-sidebar');
  await close();
});

test.serial('on a desktop the namespace switcher shows a long name whole or gives it in a tooltip, and lists it whole', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  const switcher = page.getByLabel('Namespace', { exact: true });
  await page.getByRole('link', { name: FLAG }).waitFor();
  await page.locator(`option[value="${NS}"]`).waitFor({ state: 'attached' });
  const option = page.locator(`option[value="${NS}"]`);
  await expect(option, 'the list names it whole').toContainText(NS_NAME);
  await expect(option, 'the list names it whole').toContainText(NS);
  const fits = () => switcher.evaluate((el) => el.scrollWidth <= el.clientWidth);
  const wholeOrInTooltip = async () => (await fits()) || (await switcher.getAttribute('title')) === `${NS_NAME} (${NS})`;
  await expect.poll(wholeOrInTooltip, 'whole, or whole in the tooltip').toBe(true);
  await screenshot(page, 'desktop-long-namespace');
  await close();
});
