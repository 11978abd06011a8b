/**
 * What the UI says when something cannot be saved, in a real Chromium against a real `ensign
 * server`: every missing or malformed field of a dialog at once beside its field (the first one
 * focused) before anything is sent, the service's refusals in sentences that say what to do with
 * links to what they name, and the segment page's list of the flags that use it.
 */
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);
const NS = 'msg';

/** Seeds through the API, failing on anything but a 200. */
async function post(path: string, body: unknown): Promise<any> {
  const response = await ui.api.post(`/api/v1/namespaces/${NS}${path}`, body);
  if (response.status !== 200) throw new Error(`${path}: ${response.text}`);
  return response.body;
}

test.before(async () => {
  const created = await ui.api.post('/api/v1/namespaces', { key: NS, name: 'Messages', description: '' });
  if (created.status !== 200) throw new Error(created.text);
  for (const key of ['beta', 'idle']) await post('/segments', { key, name: key === 'beta' ? 'Beta testers' : 'Idle', description: '', matchType: 'ALL_MATCH_TYPE' });
  await post('/flags', { key: 'checkout', name: 'Checkout', description: '', type: 'VARIANT_FLAG_TYPE', enabled: true });
  await post('/flags/checkout/rules', { segmentKey: 'beta', rank: 1 });
  await post('/flags', { key: 'banner', name: 'Banner', description: '', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  await post('/flags/banner/rollouts', { rank: 1, description: '', threshold: { percentage: 50, value: true } });
  await post('/flags/banner/rollouts', { rank: 2, description: '', segment: { segmentKey: 'beta', value: true } });
});

const open = (t: ExecutionContext, path: string) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`);

/** The label of the focused control (the evaluated function runs in the page). */
const focusedLabel = (page: Page) => page.locator(':focus').evaluate((element) => (element as unknown as { labels: Array<{ textContent: string }> | null }).labels?.[0]?.textContent ?? '');

test('a new flag: every problem at once beside its field, the first focused, nothing sent', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/flags')) posted++;
  });
  await page.getByRole('button', { name: 'New flag' }).click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Key').fill('no spaces!');
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await dialog.getByText('Enter a name.').waitFor();
  await dialog.getByText('Use only letters, digits, hyphens (-), underscores (_) and commas in the key.').waitFor();
  await expect(dialog.getByLabel('Name')).toHaveAccessibleDescription(/Enter a name\./);
  await expect(dialog.getByLabel('Key')).toHaveAccessibleDescription(/Use only letters/);
  await expect.poll(() => focusedLabel(page), 'the first field with a problem has the focus').toBe('Name');
  t.is(posted, 0, 'nothing was sent');

  // Fixing one field clears its problem only.
  await dialog.getByLabel('Name').fill('Another');
  await dialog.getByText('Enter a name.').waitFor({ state: 'detached' });
  await expect(dialog.getByText('Use only letters')).toHaveCount(1);
  await close();
});

test('a duplicate flag key says so and links to the existing flag', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  await page.getByRole('button', { name: 'New flag' }).click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Name').fill('Checkout');
  await dialog.getByLabel('Description').fill('Kept');
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await dialog.getByText('A flag with the key “checkout” already exists in this namespace.').waitFor();
  await expect(dialog.getByLabel('Key')).toHaveAccessibleDescription(/already exists in this namespace\. Open it/);
  await expect(dialog.getByLabel('Description')).toHaveValue('Kept');
  await dialog.getByRole('link', { name: 'Open it' }).click();
  await page.waitForURL(`**/namespaces/${NS}/flags/checkout`);
  await close();
});

test('a new segment and a new namespace check their fields before sending', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/segments`);
  await page.getByRole('button', { name: 'New segment' }).first().click();
  const segment = page.getByRole('dialog', { name: 'New segment' });
  await segment.getByRole('button', { name: 'Create segment' }).click();
  await segment.getByText('Enter a name.').waitFor();
  await segment.getByText('Enter a key.').waitFor();
  await expect.poll(() => focusedLabel(page)).toBe('Name');
  await segment.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`${ui.server.baseUrl}/settings/namespaces`);
  await page.getByRole('button', { name: 'New namespace' }).click();
  const namespace = page.getByRole('dialog', { name: 'New namespace' });
  await namespace.getByLabel('Name').fill('Messages again');
  await namespace.getByLabel('Key').fill(NS);
  await namespace.getByRole('button', { name: 'Create namespace' }).click();
  await namespace.getByText(`A namespace with the key “${NS}” already exists. Choose another key.`).waitFor();
  await close();
});

test('a constraint: the property and the value are asked for together', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/segments/idle`);
  await page.getByRole('button', { name: 'Add constraint' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add constraint' });
  await dialog.getByRole('button', { name: 'Save constraint' }).click();
  await dialog.getByText('Enter a property, such as plan or country.').waitFor();
  await dialog.getByText('Enter a value.').waitFor();
  await expect.poll(() => focusedLabel(page)).toBe('Property');
  await dialog.getByLabel('Property').fill('plan');
  await dialog.getByLabel('Value', { exact: true }).fill('pro');
  await dialog.getByRole('button', { name: 'Save constraint' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await close();
});

test('the segment page lists the rules and rollouts using it; deleting is not offered and the page names them with links', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/segments/beta`);
  const usedBy = page.getByRole('list', { name: 'Flags using this segment' });
  await usedBy.waitFor();
  await expect(usedBy.getByRole('link', { name: 'Checkout' })).toHaveAttribute('href', `/namespaces/${NS}/flags/checkout`);
  await expect(usedBy.getByRole('link', { name: 'Banner' })).toHaveAttribute('href', `/namespaces/${NS}/flags/banner`);
  await usedBy.getByText('Rule 1').waitFor();
  await usedBy.getByText('Rollout 2').waitFor();

  // Deleting is not offered: the service would refuse. The page says why, with links to the flags.
  await page.getByRole('button', { name: 'Delete segment' }).and(page.locator(':disabled')).waitFor();
  const note = page.getByRole('note').filter({ hasText: 'It cannot be deleted: Segment “beta” is used by 1 rule and 1 rollout (flag banner rollout 2, flag checkout rule 1): remove it from them first.' });
  await note.waitFor();
  await note.getByRole('link', { name: 'flag checkout rule 1' }).click();
  await page.waitForURL(`**/namespaces/${NS}/flags/checkout`);
  t.is((await ui.api.get(`/api/v1/namespaces/${NS}/segments/beta`)).status, 200);

  // A segment no flag uses says so.
  await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/segments/idle`);
  await page.getByRole('heading', { name: 'Not used by any flag' }).waitFor();
  await close();
});
