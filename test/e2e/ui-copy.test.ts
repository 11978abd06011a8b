/**
 * "Copy to namespace…" in a real Chromium against a real `ensign server`: a flag is copied with its
 * variants, default variant and metadata (not its rules) and a segment with its constraints, the
 * source and the target's other flags and segments left as they were; copying again is refused
 * before anything is sent, naming the flag or segment with a link to it, and so is a copy whose
 * key was taken between the check and the import; the service's other refusals are shown; the
 * source is never a target; a read-only server offers no copy; the dialog fits a phone.
 */
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);
const SRC = 'copy-staging';
const DST = 'copy-production';
const PHONE = { width: 390, height: 844 };
const LONG_NAME = 'Regional storefront experiments for the European market and beyond';

/** Sends through the API, failing on anything but a 200. */
async function call(method: 'post' | 'put', path: string, body: unknown): Promise<any> {
  const response = await ui.api[method](path, body);
  if (response.status !== 200) throw new Error(`${path}: ${response.text}`);
  return response.body;
}

const get = async (path: string): Promise<any> => {
  const response = await ui.api.get(path);
  if (response.status !== 200) throw new Error(`${path}: ${response.text}`);
  return response.body;
};

/** A namespace's flags and segments as the API lists them (each with its variants or constraints). */
const contents = async (ns: string) => ({
  flags: (await get(`/api/v1/namespaces/${ns}/flags`)).flags,
  segments: (await get(`/api/v1/namespaces/${ns}/segments`)).segments,
});

test.serial.before(async () => {
  await call('post', '/api/v1/namespaces', { key: SRC, name: 'Staging', description: '' });
  await call('post', '/api/v1/namespaces', { key: DST, name: 'Production', description: 'Live traffic' });
  await call('post', '/api/v1/namespaces', { key: 'copy-far-away', name: LONG_NAME, description: '' });
  const src = `/api/v1/namespaces/${SRC}`;
  await call('post', `${src}/segments`, { key: 'beta', name: 'Beta testers', description: 'Asked to try things first', matchType: 'ANY_MATCH_TYPE' });
  await call('post', `${src}/segments/beta/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: '["pro","team"]', description: 'Paying' });
  await call('post', `${src}/segments/beta/constraints`, { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18', description: '' });
  await call('post', `${src}/flags`, { key: 'checkout', name: 'Checkout', description: 'The one-page checkout', enabled: true, type: 'VARIANT_FLAG_TYPE' });
  await call('post', `${src}/flags/checkout/variants`, { key: 'blue', name: 'Blue', description: 'A blue button', attachment: '{"hex":"#00f"}' });
  const green = await call('post', `${src}/flags/checkout/variants`, { key: 'green', name: 'Green', description: '', attachment: '' });
  await call('put', `${src}/flags/checkout`, { name: 'Checkout', description: 'The one-page checkout', enabled: true, defaultVariantId: green.id, metadata: { team: 'payments' } });
  const rule = await call('post', `${src}/flags/checkout/rules`, { segmentKey: 'beta', rank: 1 });
  await call('post', `${src}/flags/checkout/rules/${rule.id}/distributions`, { variantId: green.id, rollout: 100 });
  // What the target holds already, which a copy must leave alone.
  const dst = `/api/v1/namespaces/${DST}`;
  await call('post', `${dst}/segments`, { key: 'vip', name: 'VIP', description: '', matchType: 'ALL_MATCH_TYPE' });
  await call('post', `${dst}/flags`, { key: 'banner', name: 'Banner', description: 'Kept', enabled: true, type: 'VARIANT_FLAG_TYPE' });
  await call('post', `${dst}/flags/banner/variants`, { key: 'on', name: 'On', description: '', attachment: '' });
  await call('post', `${dst}/flags/banner/rules`, { segmentKey: 'vip', rank: 1 });
});

const open = (t: ExecutionContext, path: string, options?: PageOptions) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, options);

/** Counts the import requests the page sends (previews and real ones). */
function countImports(page: Page): { readonly count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/import')) seen.count++;
  });
  return seen;
}

/** Opens the dialog from the page's header and picks `target`. */
async function startCopy(page: Page, what: 'flag' | 'segment', target: string) {
  await page.getByRole('button', { name: 'Copy to namespace…' }).click();
  const dialog = page.getByRole('dialog', { name: `Copy ${what} to namespace` });
  await dialog.getByLabel('Namespace').selectOption(target);
  return dialog;
}

test.serial('a flag is copied with its variants and default variant, not its rules; the source and the target’s other flags stay as they were', async (t) => {
  const before = { src: await contents(SRC), dst: await contents(DST), bannerRules: (await get(`/api/v1/namespaces/${DST}/flags/banner/rules`)).rules };
  const { page, close } = await open(t, `/namespaces/${SRC}/flags/checkout`);
  await page.getByRole('button', { name: 'Copy to namespace…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy flag to namespace' });
  await dialog.getByText('Rules and rollouts are not copied.').waitFor();
  await dialog.getByText('its 2 variants (default “green”)').waitFor();
  const select = dialog.getByLabel('Namespace');
  t.deepEqual(await select.locator('option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value)), ['default', DST, 'copy-far-away'], 'every namespace but the source');
  await expect(select.locator(`option[value="${DST}"]`)).toHaveText(`Production (${DST})`);
  await select.selectOption(DST);
  await screenshot(page, 'copy-flag-dialog');
  await dialog.getByRole('button', { name: 'Copy flag' }).click();
  await dialog.getByRole('status').filter({ hasText: `Flag “checkout” was copied to the namespace “Production”.` }).waitFor();

  const copy = await get(`/api/v1/namespaces/${DST}/flags/checkout`);
  t.like(copy, { key: 'checkout', name: 'Checkout', description: 'The one-page checkout', enabled: true, type: 'VARIANT_FLAG_TYPE', metadata: { team: 'payments' } });
  t.deepEqual(
    copy.variants.map((v: any) => [v.key, v.name, v.description, v.attachment]),
    [
      ['blue', 'Blue', 'A blue button', '{"hex":"#00f"}'],
      ['green', 'Green', '', ''],
    ],
  );
  t.is(copy.defaultVariant?.key, 'green');
  t.deepEqual((await get(`/api/v1/namespaces/${DST}/flags/checkout/rules`)).rules, [], 'rules are not copied');
  t.deepEqual(await contents(SRC), before.src, 'the source is unchanged');
  const after = await contents(DST);
  t.deepEqual(after.segments, before.dst.segments, 'no segment came along');
  t.deepEqual(after.flags.filter((f: any) => f.key !== 'checkout'), before.dst.flags, 'the target’s other flags are untouched');
  t.deepEqual((await get(`/api/v1/namespaces/${DST}/flags/banner/rules`)).rules, before.bannerRules);

  // The link leads to the copy, and the dialog closes on the way.
  await dialog.getByRole('link', { name: 'Open the copy' }).click();
  await page.waitForURL(`**/namespaces/${DST}/flags/checkout`);
  await dialog.waitFor({ state: 'hidden' });
  const variants = page.getByRole('table').filter({ hasText: 'Attachment' });
  await variants.getByText('blue', { exact: true }).waitFor();
  await variants.getByText('green', { exact: true }).waitFor();
  await variants.getByText('Default', { exact: true }).waitFor();
  await close();
});

test.serial('copying a flag again is refused before anything is sent, naming it with a link to it', async (t) => {
  const before = await contents(DST);
  const { page, close } = await open(t, `/namespaces/${SRC}/flags/checkout`);
  const imports = countImports(page);
  const dialog = await startCopy(page, 'flag', DST);
  await dialog.getByRole('button', { name: 'Copy flag' }).click();
  const refusal = dialog.getByRole('alert').filter({ hasText: 'The namespace “Production” already has a flag with the key “checkout”, so nothing was copied.' });
  await refusal.waitFor();
  t.is(imports.count, 0, 'no import was sent');
  t.deepEqual(await contents(DST), before);
  const link = refusal.getByRole('link', { name: 'Open the existing flag' });
  await expect(link).toHaveAttribute('href', `/namespaces/${DST}/flags/checkout`);

  // Another target clears the refusal.
  await dialog.getByLabel('Namespace').selectOption('copy-far-away');
  await refusal.waitFor({ state: 'detached' });
  await dialog.getByLabel('Namespace').selectOption(DST);
  await dialog.getByRole('button', { name: 'Copy flag' }).click();
  await link.click();
  await page.waitForURL(`**/namespaces/${DST}/flags/checkout`);
  await dialog.waitFor({ state: 'hidden' });
  await close();
});

test.serial('a segment is copied with its constraints; copying it again is refused with a link', async (t) => {
  const before = { src: await contents(SRC), dst: await contents(DST) };
  const { page, close } = await open(t, `/namespaces/${SRC}/segments/beta`);
  await page.getByRole('button', { name: 'Copy to namespace…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy segment to namespace' });
  await dialog.getByText('with its 2 constraints').waitFor();
  await dialog.getByLabel('Namespace').selectOption(DST);
  await expect(dialog.getByLabel('Namespace').locator(`option[value="${SRC}"]`), 'the source is not a target').toHaveCount(0);
  await dialog.getByRole('button', { name: 'Copy segment' }).click();
  await dialog.getByRole('status').filter({ hasText: 'Segment “beta” was copied to the namespace “Production”.' }).waitFor();

  const copy = await get(`/api/v1/namespaces/${DST}/segments/beta`);
  t.like(copy, { key: 'beta', name: 'Beta testers', description: 'Asked to try things first', matchType: 'ANY_MATCH_TYPE' });
  t.deepEqual(
    copy.constraints.map((c: any) => [c.type, c.property, c.operator, c.value, c.description]),
    [
      ['STRING_COMPARISON_TYPE', 'plan', 'isoneof', '["pro","team"]', 'Paying'],
      ['NUMBER_COMPARISON_TYPE', 'age', 'gte', '18', ''],
    ],
  );
  t.deepEqual(await contents(SRC), before.src, 'the source is unchanged');
  const after = await contents(DST);
  t.deepEqual(after.flags, before.dst.flags, 'no flag changed');
  t.deepEqual(after.segments.filter((s: any) => s.key !== 'beta'), before.dst.segments, 'the target’s other segments are untouched');

  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const imports = countImports(page);
  await startCopy(page, 'segment', DST);
  await dialog.getByRole('button', { name: 'Copy segment' }).click();
  const refusal = dialog.getByRole('alert').filter({ hasText: 'The namespace “Production” already has a segment with the key “beta”, so nothing was copied.' });
  await refusal.waitFor();
  t.is(imports.count, 0);
  await refusal.getByRole('link', { name: 'Open the existing segment' }).click();
  await page.waitForURL(`**/namespaces/${DST}/segments/beta`);
  await page.getByText('plan', { exact: true }).waitFor();
  await close();
});

test.serial('a key taken after the check is refused whole by the import; other refusals are shown and nothing is written', async (t) => {
  const before = await contents(DST);
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/${SRC}/flags/checkout`, {
    allowConsoleErrors: [/Failed to load resource: the server responded with a status of (4\d\d|503)/],
  });
  // The check sees no flag (as if it were created just after): the import itself refuses it.
  await page.route(`**/api/v1/namespaces/${DST}/flags/checkout`, (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 5, message: `flag "${DST}/checkout" not found` }) }),
  );
  const dialog = await startCopy(page, 'flag', DST);
  await dialog.getByRole('button', { name: 'Copy flag' }).click();
  await dialog.getByRole('alert').filter({ hasText: 'already has a flag with the key “checkout”' }).getByRole('link', { name: 'Open the existing flag' }).waitFor();
  t.deepEqual(await contents(DST), before, 'nothing was written');

  // A refusal of another kind is said in a sentence, and the copy can be tried again.
  const isImport = (url: URL) => url.pathname.endsWith('/import');
  await page.route(isImport, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 14, message: 'the database is unavailable' }) }));
  await dialog.getByLabel('Namespace').selectOption('copy-far-away');
  await dialog.getByRole('button', { name: 'Copy flag' }).click();
  await dialog.getByRole('alert').filter({ hasText: 'The database is unavailable.' }).waitFor();
  t.is((await ui.api.get('/api/v1/namespaces/copy-far-away/flags/checkout')).status, 404, 'nothing was copied');
  await page.unroute(isImport);
  await dialog.getByRole('button', { name: 'Copy flag' }).click();
  await dialog.getByRole('status').filter({ hasText: `was copied to the namespace “${LONG_NAME}”` }).waitFor();
  t.is((await get('/api/v1/namespaces/copy-far-away/flags/checkout')).variants.length, 2);
  await close();
});

test.serial('a read-only server offers no copy; with no other namespace the dialog says so', async (t) => {
  const { page, close } = await open(t, `/namespaces/${SRC}/segments/beta`);
  await page.getByRole('button', { name: 'Copy to namespace…' }).waitFor();

  await page.route('**/api/v1/namespaces', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ namespaces: [{ key: SRC, name: 'Staging', description: '', protected: false, createdAt: '', updatedAt: '' }] }) })
      : route.continue(),
  );
  await page.reload();
  await page.getByRole('button', { name: 'Copy to namespace…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy segment to namespace' });
  await dialog.getByText('There is no other namespace to copy to.').waitFor();
  await expect(dialog.getByRole('link', { name: 'Create a namespace' })).toHaveAttribute('href', '/settings/namespaces');
  await expect(dialog.getByRole('button', { name: 'Copy segment' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.route('**/meta/info', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ storage: { type: 'database', readOnly: true } }) }));
  for (const path of [`/namespaces/${SRC}/segments/beta`, `/namespaces/${SRC}/flags/checkout`]) {
    await page.goto(`${ui.server.baseUrl}${path}`);
    await page.getByRole('button', { name: 'Copy key' }).waitFor();
    await expect(page.getByRole('button', { name: 'Copy to namespace…' }), `${path}: no copy on a read-only server`).toHaveCount(0);
  }
  await close();
});

/** The page's width against the window's. */
const widths = (page: Page) => page.evaluate<{ scrollWidth: number; innerWidth: number }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');

for (const scheme of ['light', 'dark'] as const) {
  test.serial(`the dialog fits a phone (${scheme})`, async (t) => {
    const { page, close } = await open(t, `/namespaces/${SRC}/flags/checkout`, { viewport: PHONE, colorScheme: scheme });
    await page.getByRole('button', { name: 'Copy to namespace…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy flag to namespace' });
    await dialog.getByLabel('Namespace').selectOption('copy-far-away');
    await dialog.getByRole('button', { name: 'Copy flag' }).click();
    // Copied in the test before: the refusal, the longest thing the dialog shows.
    await dialog.getByRole('link', { name: 'Open the existing flag' }).waitFor();
    const box = await dialog.boundingBox();
    t.truthy(box);
    t.true(box!.x >= 0 && box!.x + box!.width <= PHONE.width, `the dialog is within the screen (${box!.x}…${box!.x + box!.width})`);
    const { scrollWidth, innerWidth } = await widths(page);
    t.true(scrollWidth <= innerWidth, `no sideways scroll (${scrollWidth} > ${innerWidth})`);
    const select = await dialog.getByLabel('Namespace').boundingBox();
    t.true(select!.x + select!.width <= box!.x + box!.width, 'the namespace select stays inside the dialog');
    await screenshot(page, `phone-copy-dialog-${scheme}`);
    await close();
  });
}
