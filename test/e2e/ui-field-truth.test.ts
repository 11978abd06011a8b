/**
 * What a new user is told, in a real Chromium against a real `ensign server`, at 1280 px and on a
 * 390×844 phone, light and dark: a refusal beside a field goes once the field changes; a segment
 * in use is not offered for deletion, and the page says why with links; a rule whose distributions
 * add up to more than 100% (Flipt's API accepts it) is shown whole with a warning and is saved as
 * shown; the import dialog finds a document of another namespace itself, in plain words; the key
 * hint says what a key may hold; search placeholders are whole; toasts leave the last buttons free.
 */
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '@ensign/testkit';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);
const NS = 'truth';
const PHONE = { width: 390, height: 844 };
const SCREENS: ReadonlyArray<readonly [string, PageOptions]> = [
  ['1280 px, light', {}],
  ['390×844, dark', { viewport: PHONE, colorScheme: 'dark' }],
];

/** Seeds through the API, failing on anything but a 200. */
async function post(path: string, body: unknown): Promise<any> {
  const response = await ui.api.post(`/api/v1/namespaces/${NS}${path}`, body);
  if (response.status !== 200) throw new Error(`${path}: ${response.text}`);
  return response.body;
}

test.before(async () => {
  const created = await ui.api.post('/api/v1/namespaces', { key: NS, name: 'Truth', description: '' });
  if (created.status !== 200) throw new Error(created.text);
  for (const key of ['beta', 'idle']) await post('/segments', { key, name: key === 'beta' ? 'Beta testers' : 'Idle', description: '', matchType: 'ALL_MATCH_TYPE' });
  await post('/flags', { key: 'checkout', name: 'Checkout', description: '', type: 'VARIANT_FLAG_TYPE', enabled: true });
  await post('/flags/checkout/variants', { key: 'blue', name: 'Blue' });
  await post('/flags', { key: 'banner', name: 'Banner', description: '', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  await post('/flags/banner/rollouts', { rank: 1, description: '', segment: { segmentKey: 'beta', value: true } });
  // 50 + 50 + 60: a third distribution, of a variant that has one already, as Flipt's API accepts it.
  await post('/flags', { key: 'colour', name: 'Colour', description: '', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const green = await post('/flags/colour/variants', { key: 'green', name: 'Green' });
  const red = await post('/flags/colour/variants', { key: 'red', name: 'Red' });
  const rule = await post('/flags/colour/rules', { segmentKey: 'beta', rank: 1 });
  for (const [variant, rollout] of [[green, 50], [red, 50], [green, 60]] as const) await post(`/flags/colour/rules/${rule.id}/distributions`, { variantId: variant.id, rollout });
  // A namespaces page long enough to scroll, its last row's buttons at the bottom right.
  for (let i = 1; i <= 16; i++) {
    const key = i === 16 ? 'zz-last' : `team-${String(i).padStart(2, '0')}`;
    const made = await ui.api.post('/api/v1/namespaces', { key, name: key, description: '' });
    if (made.status !== 200) throw new Error(made.text);
  }
});

/** A button's background, border and text colours (the evaluated function runs in the page). */
const colours = (el: unknown): string[] => {
  const style = (el as any).ownerDocument.defaultView.getComputedStyle(el);
  return [style.backgroundColor, style.borderColor, style.color];
};

const open = (t: ExecutionContext, path: string, options?: PageOptions) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, options);

const distributionsOf = async (flagKey: string): Promise<number[]> =>
  ((await ui.api.get(`/api/v1/namespaces/${NS}/flags/${flagKey}/rules`)).body.rules as Array<{ distributions: Array<{ rollout: number }> }>)[0]!.distributions.map((d) => d.rollout);

test('a refusal beside a field goes once that field changes: new flag, new segment, variant', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  await page.getByRole('button', { name: 'New flag' }).click();
  const flag = page.getByRole('dialog', { name: 'New flag' });
  await flag.getByLabel('Name').fill('Checkout');
  await flag.getByRole('button', { name: 'Create flag' }).click();
  const duplicate = flag.getByText('A flag with the key “checkout” already exists in this namespace.');
  await duplicate.waitFor();
  await flag.getByLabel('Key').fill('checkout-two');
  await duplicate.waitFor({ state: 'detached' });
  await flag.locator('input[aria-invalid="true"]').waitFor({ state: 'detached' });
  // A change elsewhere keeps a refusal about another field.
  await flag.getByLabel('Key').fill('checkout');
  await flag.getByRole('button', { name: 'Create flag' }).click();
  await duplicate.waitFor();
  await flag.getByLabel('Description').fill('Still the same key');
  await duplicate.waitFor();
  await flag.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/segments`);
  await page.getByRole('button', { name: 'New segment' }).first().click();
  const segment = page.getByRole('dialog', { name: 'New segment' });
  await segment.getByLabel('Name').fill('Idle');
  await segment.getByRole('button', { name: 'Create segment' }).click();
  const taken = segment.getByText('A segment with the key “idle” already exists in this namespace.');
  await taken.waitFor();
  await segment.getByLabel('Key').fill('idle-users');
  await taken.waitFor({ state: 'detached' });
  await segment.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/flags/checkout`);
  await page.getByRole('button', { name: 'Add variant' }).first().click();
  const variant = page.getByRole('dialog', { name: 'Add variant' });
  await variant.getByLabel('Key').fill('blue');
  await variant.getByRole('button', { name: 'Create variant' }).click();
  const twice = variant.getByText('This flag already has a variant with the key “blue”. Choose another key.');
  await twice.waitFor();
  await variant.getByLabel('Key').fill('bluer');
  await twice.waitFor({ state: 'detached' });
  await close();
});

for (const [screen, options] of SCREENS) {
  test(`a segment in use is not offered for deletion, the page says why with links, and its button is as quiet as Delete flag (${screen})`, async (t) => {
    const { page, close } = await open(t, `/namespaces/${NS}/flags/checkout`, options);
    const deleteFlag = page.getByRole('button', { name: 'Delete flag' });
    await deleteFlag.waitFor();
    const quiet = await deleteFlag.evaluate(colours);

    await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/segments/beta`);
    const button = page.getByRole('button', { name: 'Delete segment' });
    await button.and(page.locator(':disabled')).waitFor();
    const note = page.getByRole('note').filter({ hasText: 'It cannot be deleted: Segment “beta” is used by' });
    await note.waitFor();
    await expect(note).toHaveText(/It cannot be deleted: Segment “beta” is used by \d+ rules? and 1 rollout \(flag banner rollout 1, .*\): remove it from them first\./);
    await expect(button, 'the button is described by the reason').toHaveAttribute('aria-describedby', (await note.getAttribute('id')) ?? '');
    await expect(button).toHaveAttribute('title', /is used by/);
    await expect(note.getByRole('link', { name: 'flag banner rollout 1' })).toHaveAttribute('href', `/namespaces/${NS}/flags/banner`);
    // Enabled, the button looks like Delete flag (a quiet red text, no filled red).
    await expect(button).not.toHaveClass(/button-danger/);
    await screenshot(page, `segment-in-use-${options.colorScheme ?? 'light'}-${options.viewport?.width ?? 1280}`);

    // A segment nothing uses can be deleted, after a question, from a button styled as Delete flag's.
    await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/segments/idle`);
    await page.getByRole('heading', { name: 'Not used by any flag' }).waitFor();
    const idle = page.getByRole('button', { name: 'Delete segment' });
    await idle.and(page.locator(':enabled')).waitFor();
    await expect.poll(() => idle.evaluate(colours)).toEqual(quiet);
    await idle.click();
    await page.getByRole('dialog', { name: 'Delete segment' }).getByText('No rule or rollout uses it.').waitFor();
    await page.getByRole('dialog', { name: 'Delete segment' }).getByRole('button', { name: 'Cancel' }).click();
    await close();
  });
}

for (const [screen, options] of SCREENS) {
  test.serial(`a rule at 50 + 50 + 60 shows its 160% with a warning, and its editor shows and saves every distribution (${screen})`, async (t) => {
    const { page, close } = await open(t, `/namespaces/${NS}/flags/colour`, options);
    const card = page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: 'Rule 1', exact: true });
    await card.getByRole('note').filter({ hasText: 'These distributions add up to 160%, more than 100%: evaluations give out only the first 100%, so the last 60% never apply.' }).waitFor();
    await expect(card.getByRole('list', { name: 'Distribution of rule 1' }).getByRole('listitem')).toHaveText(['green → 50%', 'red → 50%', 'green → 60%']);
    await screenshot(page, `rule-over-100-${options.colorScheme ?? 'light'}-${options.viewport?.width ?? 1280}`, { fullPage: true });

    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit rule' });
    const fields = ['green percentage', 'green (distribution 2) percentage', 'red percentage'];
    for (const [label, value] of [[fields[0]!, '50'], [fields[1]!, '60'], [fields[2]!, '50']] as const) {
      await expect(edit.getByLabel(label, { exact: true }), label).toHaveValue(value);
    }
    await edit.getByText('Total: 160%').waitFor();
    await edit.getByText('Distribution: the percentages add up to 160%; lower them to 100% or less.').waitFor();
    await edit.getByRole('button', { name: 'Save rule' }).and(page.locator(':disabled')).waitFor();
    await screenshot(page, `rule-editor-over-100-${options.colorScheme ?? 'light'}-${options.viewport?.width ?? 1280}`);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'hidden' });
    t.deepEqual(await distributionsOf('colour'), [50, 50, 60], 'nothing was dropped');
    await close();
  });
}

test.serial('the editor of the 160% rule saves what it shows: the second green set to 0% goes, the rest stays', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/colour`);
  const card = page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: 'Rule 1', exact: true });
  await card.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit rule' });
  await edit.getByLabel('green (distribution 2) percentage', { exact: true }).fill('0');
  await edit.getByText('Total: 100%').waitFor();
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await edit.waitFor({ state: 'hidden' });
  t.true(await eventually(async () => JSON.stringify(await distributionsOf('colour')) === '[50,50]'), 'the rule holds 50 + 50');
  await card.getByRole('note').waitFor({ state: 'detached' });
  await close();
});

test('a document of another namespace is found in the browser and said plainly; the key hint says what a key holds', async (t) => {
  const { page, close } = await open(t, '/settings/namespaces');
  let importCalls = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/import')) importCalls++;
  });
  await page.getByRole('button', { name: `Import into namespace ${NS}` }).click();
  const dialog = page.getByRole('dialog', { name: `Import into ${NS}` });
  await dialog.getByRole('textbox', { name: 'Document' }).fill('version: "1.4"\nnamespace:\n  key: default\n  name: Default\nflags:\n- key: a\n  name: A\n');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog
    .getByText(`This document is an export of the namespace “default”, and you are importing into “${NS}”. To import it here, remove its namespace with the button below; or import it into “default” instead.`)
    .waitFor();
  await dialog.getByRole('button', { name: `Import into ${NS} instead` }).waitFor();
  t.is(importCalls, 0, 'the service was not asked');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'New namespace' }).click();
  const hint = 'Use English letters (a–z, A–Z), digits, hyphens (-), underscores (_) or commas; no spaces, dots or other characters; up to 255 characters.';
  await page.getByRole('dialog', { name: 'New namespace' }).getByText(hint, { exact: false }).waitFor();
  await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/flags`);
  await page.getByRole('button', { name: 'New flag' }).click();
  await page.getByRole('dialog', { name: 'New flag' }).getByText(hint, { exact: false }).waitFor();
  await close();
});

/** How wide the placeholder of `input` is, and the room for text inside it (px). */
const placeholderFit = (input: Locator) =>
  input.evaluate((el) => {
    const field = el as unknown as { placeholder: string; clientWidth: number; ownerDocument: { createElement(tag: string): { getContext(kind: string): { font: string; measureText(text: string): { width: number } } } } };
    const style = (el as any).ownerDocument.defaultView.getComputedStyle(el);
    const context = field.ownerDocument.createElement('canvas').getContext('2d');
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return { text: Math.ceil(context.measureText(field.placeholder).width), room: Math.floor(field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) };
  });

for (const [screen, options] of SCREENS) {
  test(`the search placeholders of the flags and segments lists are whole (${screen})`, async (t) => {
    const { page, close } = await open(t, `/namespaces/${NS}/flags`, options);
    const flags = page.getByRole('searchbox', { name: 'Search flags' });
    await page.getByRole('link', { name: 'checkout', exact: true }).waitFor();
    const flagFit = await placeholderFit(flags);
    t.true(flagFit.text <= flagFit.room, `flags: "${await flags.getAttribute('placeholder')}" ${JSON.stringify(flagFit)}`);

    await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/segments`);
    const segments = page.locator('main input[type="search"]').first();
    await page.getByText('idle', { exact: true }).first().waitFor();
    const segmentFit = await placeholderFit(segments);
    t.true(segmentFit.text <= segmentFit.room, `segments: "${await segments.getAttribute('placeholder')}" ${JSON.stringify(segmentFit)}`);
    await close();
  });
}

/** The labels of the last namespace's buttons that a toast covers, read in one go in the page. */
const coveredButtons = (page: Page): Promise<string[]> =>
  page.evaluate<string[]>(`(() => {
    const toasts = [...document.querySelectorAll('.toast')].map((toast) => toast.getBoundingClientRect());
    const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return [...document.querySelectorAll('main button[aria-label$=" zz-last"]')]
      .filter((button) => toasts.some((toast) => overlaps(toast, button.getBoundingClientRect())))
      .map((button) => button.getAttribute('aria-label'));
  })()`);

for (const [screen, options] of [...SCREENS, ['390×844, light', { viewport: PHONE }] as const, ['1280 px, dark', { colorScheme: 'dark' }] as const]) {
  test.serial(`a toast at the end of a long page leaves the last card's buttons free (${screen})`, async (t) => {
    const { page, close } = await open(t, '/settings/namespaces', options);
    const exports = page.getByRole('button', { name: /^Export namespace / });
    await page.getByRole('button', { name: 'Export namespace zz-last' }).waitFor();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    // Two exports: two toasts, one above the other.
    for (let n = 1; n <= 2; n++) {
      await Promise.all([page.waitForEvent('download'), exports.last().click()]);
      await page.locator('.toast').filter({ hasText: 'exported' }).nth(n - 1).waitFor();
    }
    // While both toasts show, none covers a button of the last row.
    let covered: string[] = [];
    const free = await eventually(async () => {
      covered = await coveredButtons(page);
      return covered.length === 0 && (await page.locator('.toast').count()) === 2;
    });
    await screenshot(page, `toast-last-card-${options.colorScheme ?? 'light'}-${options.viewport?.width ?? 1280}`);
    t.true(free, `covered by a toast: ${covered.join(', ')}`);
    await close();
  });
}
