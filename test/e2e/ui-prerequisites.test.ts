/**
 * A flag's prerequisites in a real Chromium: added on the child's page (on, or one of a variant
 * flag's variants), the child listed among the parent's dependents, a prerequisite that would close
 * a cycle refused beside its field with the service's words, one removed; the console naming the
 * prerequisite that failed; a required flag's delete refused naming who requires it; and the card
 * on a phone in light and dark.
 */
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);

const NS = 'prereq';
const flagPath = (key: string) => `/api/v1/namespaces/${NS}/flags/${key}`;
const REFUSALS = [/Failed to load resource: the server responded with a status of 4\d\d/];

async function ok<T = Record<string, unknown>>(t: ExecutionContext, response: Promise<{ status: number; text: string; body: unknown }>, label: string): Promise<T> {
  const res = await response;
  t.is(res.status, 200, `${label}: ${res.text}`);
  return res.body as T;
}

test.serial.before('two boolean flags, and a variant flag serving light to everyone', async (t) => {
  const api = ui.api;
  await ok(t, api.post('/api/v1/namespaces', { key: NS, name: 'Prerequisites' }), 'namespace');
  await ok(t, api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'payments', name: 'Payments', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }), 'payments');
  await ok(t, api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'checkout', name: 'Checkout', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }), 'checkout');
  await ok(t, api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'theme', name: 'Theme', enabled: true, type: 'VARIANT_FLAG_TYPE' }), 'theme');
  await ok(t, api.post(`${flagPath('theme')}/variants`, { key: 'dark', name: 'Dark' }), 'dark');
  const light = await ok<{ id: string }>(t, api.post(`${flagPath('theme')}/variants`, { key: 'light', name: 'Light' }), 'light');
  await ok(t, api.put(flagPath('theme'), { name: 'Theme', description: '', enabled: true, defaultVariantId: light.id }), 'default variant');
});

const open = (t: ExecutionContext, path: string, options: PageOptions = {}) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, { allowConsoleErrors: REFUSALS, ...options });

const card = (page: Page) => page.getByRole('region', { name: 'Prerequisites' });
/** What each item of `list` says (its text, without its buttons). */
const listed = (list: Locator) => list.getByRole('listitem').locator(':scope > span');
const prerequisitesOf = async (t: ExecutionContext, key: string) => (await ok<{ prerequisites?: unknown[] }>(t, ui.api.get(flagPath(key)), key)).prerequisites;

test.serial('a prerequisite added on the child links to its parent, whose page lists the child among its dependents', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/checkout`);
  await card(page).getByText('Requires no other flag.').waitFor();
  await card(page).getByText('No flag requires this one.').waitFor();
  await card(page).getByRole('button', { name: 'Add prerequisite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add prerequisite' });
  await expect(dialog.getByLabel('Flag').locator('option'), 'the other flags of the namespace').toHaveText(['payments (Payments)', 'theme (Theme)']);
  await dialog.getByLabel('Flag').selectOption('payments');
  await expect(dialog.getByRole('radio', { name: 'Is on' })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'Serves one of these variants' }), 'a boolean flag serves no variant').toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add prerequisite' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const requires = card(page).getByRole('list', { name: 'Prerequisites' });
  await requires.waitFor();
  await expect(listed(requires)).toHaveText(['Requires payments is on']);
  t.deepEqual(await prerequisitesOf(t, 'checkout'), [{ flagKey: 'payments', enabled: true }]);

  await requires.getByRole('link', { name: 'payments' }).click();
  await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
  const dependents = card(page).getByRole('list', { name: 'Dependents' });
  await dependents.waitFor();
  await expect(listed(dependents)).toHaveText(['checkout when this flag is on']);
  await expect(dependents.getByRole('link', { name: 'checkout' })).toHaveAttribute('href', `/namespaces/${NS}/flags/checkout`);
  await screenshot(page, 'prerequisites-parent', { fullPage: true });
  await close();
});

test.serial("a prerequisite that would close a cycle is refused beside the flag with the service's words", async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/payments`);
  await card(page).getByRole('list', { name: 'Dependents' }).waitFor();
  await card(page).getByRole('button', { name: 'Add prerequisite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add prerequisite' });
  await dialog.getByLabel('Flag').selectOption('checkout');
  await dialog.getByRole('button', { name: 'Add prerequisite' }).click();
  await dialog.locator('.field-error').waitFor();
  await expect(dialog.getByLabel('Flag')).toHaveAccessibleDescription(/The prerequisite would close a cycle: payments → checkout → payments\./);
  await expect(dialog.getByLabel('Flag'), 'the choice is kept').toHaveValue('checkout');
  await screenshot(page, 'prerequisites-cycle');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  t.is(await prerequisitesOf(t, 'payments'), undefined, 'nothing stored');
  await close();
});

test.serial('a variant condition, a removal, and the console naming the prerequisite that failed', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/checkout`);
  const requires = card(page).getByRole('list', { name: 'Prerequisites' });
  await requires.waitFor();
  await card(page).getByRole('button', { name: 'Add prerequisite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add prerequisite' });
  await expect(dialog.getByLabel('Flag').locator('option'), 'a parent it has already is not offered again').toHaveText(['theme (Theme)']);
  await dialog.getByRole('radio', { name: 'Serves one of these variants' }).check();
  await expect(dialog.getByRole('button', { name: 'Add prerequisite' }), 'no variant picked yet').toBeDisabled();
  await dialog.getByRole('checkbox', { name: 'dark' }).check();
  await dialog.getByRole('button', { name: 'Add prerequisite' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await requires.getByText('serves dark').waitFor();
  await expect(listed(requires)).toHaveText(['Requires payments is on', 'Requires theme serves dark']);

  await requires.getByRole('button', { name: 'Remove prerequisite payments' }).click();
  await page.getByRole('dialog', { name: 'Remove prerequisite' }).getByRole('button', { name: 'Remove prerequisite' }).click();
  await requires.getByText('payments').waitFor({ state: 'detached' });
  await expect(listed(requires)).toHaveText(['Requires theme serves dark']);
  t.deepEqual(await prerequisitesOf(t, 'checkout'), [{ flagKey: 'theme', variants: ['dark'] }]);

  // Theme serves light to everyone: checkout's prerequisite fails, and it answers false.
  await page.getByRole('link', { name: 'Evaluate in console' }).click();
  await page.getByLabel('Entity ID').fill('user-7');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  const note = result.locator('.prerequisite-outcome');
  await note.getByText('Not met').waitFor();
  await expect(note).toHaveText('Not met: theme did not serve dark for this entity, so the flag served false. PREREQUISITE_FAILED', { useInnerText: true });
  await expect(note.getByRole('link', { name: 'theme' })).toHaveAttribute('href', `/namespaces/${NS}/flags/theme`);
  await expect(result.locator('.result-headline')).toHaveText('Disabled', { useInnerText: true });
  await screenshot(page, 'prerequisites-console');
  await close();
});

test.serial('deleting a flag another requires is refused, naming it', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/theme`);
  await card(page).getByRole('list', { name: 'Dependents' }).waitFor();
  await page.getByRole('button', { name: 'Delete flag' }).click();
  await page.getByRole('dialog', { name: 'Delete flag' }).getByRole('button', { name: 'Delete flag' }).click();
  await page.getByText('The flag was not deleted: Flag “theme” is a prerequisite of checkout: remove it from their prerequisites first.').waitFor();
  t.is((await ui.api.get(flagPath('theme'))).status, 200, 'still there');
  await close();
});

for (const scheme of ['light', 'dark'] as const) {
  test.serial(`on a phone the prerequisites and dependents fit the screen (${scheme})`, async (t) => {
    const { page, close } = await open(t, `/namespaces/${NS}/flags/checkout`, { viewport: { width: 390, height: 844 }, colorScheme: scheme });
    await card(page).getByRole('list', { name: 'Prerequisites' }).waitFor();
    const width = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    await expect.poll(width, 'the child page does not scroll sideways').toBe(0);
    await screenshot(page, `phone-prerequisites-${scheme}`, { fullPage: true });
    await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/flags/payments`);
    await card(page).getByRole('button', { name: 'Add prerequisite', disabled: false }).click();
    const dialog = page.getByRole('dialog', { name: 'Add prerequisite' });
    await dialog.getByLabel('Flag').selectOption('theme');
    await dialog.getByRole('radio', { name: 'Serves one of these variants' }).check();
    await dialog.getByRole('checkbox', { name: 'light' }).waitFor();
    await expect.poll(width, 'nor the dialog with a variant flag’s variants').toBe(0);
    await screenshot(page, `phone-prerequisite-dialog-${scheme}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/flags/theme`);
    await card(page).getByRole('list', { name: 'Dependents' }).waitFor();
    await expect.poll(width, 'the parent page').toBe(0);
    await close();
  });
}
