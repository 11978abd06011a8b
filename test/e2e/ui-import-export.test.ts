/**
 * Moving flags without a shell, in a real Chromium against a real `ensign server`: a namespace is
 * exported as a Flipt YAML download, imported into another namespace through the preview (which
 * writes nothing) and applied; refusals show the service's message, with the place in the
 * document, under the document.
 */
import { readFile } from 'node:fs/promises';
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { parse } from 'yaml';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);

/** The service's refusals are on purpose here; Chromium logs each one. */
const REFUSALS = [/Failed to load resource: the server responded with a status of 4\d\d/];
const open = (t: ExecutionContext, path: string, options?: PageOptions) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, { allowConsoleErrors: REFUSALS, ...options });

/** Fails the hook when a seeding call is refused. */
async function seedCall(pending: Promise<{ status: number; text: string; body: any }>): Promise<any> {
  const res = await pending;
  if (res.status !== 200) throw new Error(`seeding: ${res.status} ${res.text}`);
  return res.body;
}

test.before(async () => {
  const ns = '/api/v1/namespaces/source';
  await seedCall(ui.api.post('/api/v1/namespaces', { key: 'source', name: 'Source', description: 'Flags to copy' }));
  await seedCall(ui.api.post(`${ns}/segments`, { key: 'beta', name: 'Beta', matchType: 'ALL_MATCH_TYPE' }));
  await seedCall(ui.api.post(`${ns}/segments/beta/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }));
  await seedCall(ui.api.post(`${ns}/flags`, { key: 'checkout', name: 'Checkout', enabled: true }));
  const blue = await seedCall(ui.api.post(`${ns}/flags/checkout/variants`, { key: 'blue', name: 'Blue', attachment: '{"hex":"#00f"}' }));
  await seedCall(ui.api.post(`${ns}/flags/checkout/variants`, { key: 'green', name: 'Green' }));
  const rule = await seedCall(ui.api.post(`${ns}/flags/checkout/rules`, { segmentKey: 'beta', rank: 1 }));
  await seedCall(ui.api.post(`${ns}/flags/checkout/rules/${rule.id}/distributions`, { variantId: blue.id, rollout: 100 }));
  await seedCall(ui.api.post(`${ns}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE', enabled: true }));
  await seedCall(ui.api.post(`${ns}/flags/banner/rollouts`, { rank: 1, threshold: { percentage: 25, value: true } }));
  for (const key of ['target', 'checks']) await seedCall(ui.api.post('/api/v1/namespaces', { key, name: key, description: '' }));
});

/** Opens the import dialog of `ns` from the namespaces page. */
async function openImport(page: Page, ns: string): Promise<Locator> {
  await page.getByRole('button', { name: `Import into namespace ${ns}` }).click();
  const dialog = page.getByRole('dialog', { name: `Import into ${ns}` });
  await dialog.waitFor();
  return dialog;
}

/** The keys a preview lists under `heading` ("Flags created"). */
const listed = (dialog: Locator, heading: string): Locator => dialog.getByRole('region', { name: 'Preview' }).getByRole('list', { name: new RegExp(`^${heading}`) }).getByRole('listitem');

const flagKeys = async (ns: string): Promise<string[]> => ((await ui.api.get(`/api/v1/namespaces/${ns}/flags`)).body as { flags: Array<{ key: string }> }).flags.map((f) => f.key);

test.serial('a namespace exported as YAML imports into another through a preview, and its flags appear', async (t) => {
  const { page, close } = await open(t, '/settings/namespaces');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export namespace source' }).click()]);
  t.is(download.suggestedFilename(), 'source.yaml');
  const text = await readFile(await download.path(), 'utf8');
  t.true(text.startsWith('version: "1.4"\nnamespace:\n  key: source\n'), text);
  t.deepEqual(parse(text).flags.map((f: { key: string }) => f.key), ['checkout', 'banner']);
  await page.getByText('Namespace "source" exported').waitFor();

  const dialog = await openImport(page, 'target');
  await dialog.locator('input[type="file"]').setInputFiles({ name: 'source.yaml', mimeType: 'application/yaml', buffer: Buffer.from(text) });
  await dialog.getByText('source.yaml', { exact: true }).waitFor();
  await expect(dialog.getByRole('textbox', { name: 'Document' }), 'the chosen file is shown').toHaveValue(text);
  let importCalls = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/import')) importCalls++;
  });
  await dialog.getByRole('button', { name: 'Preview' }).click();
  // The export names its namespace: the browser finds it before asking the service.
  await dialog.getByText('This document is an export of the namespace “source”, and you are importing into “target”. To import it here, remove its namespace with the button below; or import it into “source” instead.').waitFor();
  t.is(importCalls, 0, 'the service was not asked');
  const retarget = dialog.getByRole('button', { name: 'Import into target instead' });
  await retarget.click();
  await retarget.waitFor({ state: 'detached' });
  await expect(dialog.getByRole('textbox', { name: 'Document' }), 'the namespace is gone from the document').not.toHaveValue(/key: source/);

  await dialog.getByRole('button', { name: 'Preview' }).click();
  const preview = dialog.getByRole('region', { name: 'Preview' });
  await preview.getByText('2 flags created; 1 segment created').waitFor();
  await expect(listed(dialog, 'Flags created')).toHaveText(['checkout', 'banner']);
  await expect(listed(dialog, 'Segments created')).toHaveText(['beta']);
  t.deepEqual(await flagKeys('target'), [], 'the preview wrote nothing');
  await screenshot(page, 'import-preview');

  await dialog.getByRole('button', { name: 'Apply' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText('Imported into "target": 2 flags created; 1 segment created').waitFor();
  t.deepEqual(await flagKeys('target'), ['checkout', 'banner']);

  await page.getByRole('link', { name: 'Flags of target' }).click();
  await page.waitForURL('**/namespaces/target/flags');
  await page.getByRole('link', { name: 'checkout' }).waitFor();
  await page.getByRole('link', { name: 'banner' }).waitFor();
  await page.getByRole('link', { name: 'checkout' }).click();
  await page.getByRole('heading', { name: 'Rule 1' }).waitFor();
  await close();
});

test.serial('a key already there is refused by the preview; skipping or replacing says what happens', async (t) => {
  const { page, close } = await open(t, '/settings/namespaces');
  const dialog = await openImport(page, 'target');
  await dialog.getByRole('textbox', { name: 'Document' }).fill('flags:\n- key: checkout\n  name: Checkout again\n- key: extra\n  name: Extra\n');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByText('flags[0].key: flag "checkout" already exists in namespace "target"', { exact: false }).waitFor();
  await expect(dialog.getByRole('textbox', { name: 'Document' })).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByRole('radio', { name: /^Skip existing/ }).check();
  await expect(dialog.getByRole('alert'), 'a new choice clears the refusal').toHaveCount(0);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByRole('region', { name: 'Preview' }).getByText('1 flag created').waitFor();
  await expect(listed(dialog, 'Flags created')).toHaveText(['extra']);
  await expect(listed(dialog, 'Flags left as they are')).toHaveText(['checkout']);

  await dialog.getByRole('radio', { name: /^Replace everything/ }).check();
  await expect(dialog.getByRole('button', { name: 'Apply' }), 'another choice needs another preview').toHaveCount(0);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByRole('region', { name: 'Preview' }).getByText('1 flag created, 1 updated, 1 deleted; 1 segment deleted').waitFor();
  await expect(listed(dialog, 'Flags deleted')).toHaveText(['banner']);
  await expect(listed(dialog, 'Segments deleted')).toHaveText(['beta']);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  t.deepEqual(await flagKeys('target'), ['checkout', 'banner'], 'nothing was applied');
  await close();
});

test('an invalid document shows the service\'s error with its place in the document, and keeps the text', async (t) => {
  const { page, close } = await open(t, '/settings/namespaces');
  const dialog = await openImport(page, 'checks');
  const bad = 'flags:\n- key: color\n  name: Color\n  variants:\n  - key: blue\n  rules:\n  - segment: beta\n    distributions:\n    - variant: blu\n      rollout: 100\nsegments:\n- key: beta\n  name: Beta\n';
  await dialog.getByRole('textbox', { name: 'Document' }).fill(bad);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const error = dialog.getByRole('alert');
  await error.waitFor();
  await expect(error).toHaveText(/flags\[0\]\.rules\[0\]\.distributions\[0\]\.variant/);
  await expect(dialog.getByRole('textbox', { name: 'Document' })).toHaveValue(bad);
  await expect(dialog.getByRole('button', { name: 'Apply' })).toHaveCount(0);

  await dialog.getByRole('textbox', { name: 'Document' }).fill('flags:\n  - key: a\n   name: b\n');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByText(/invalid YAML body: .* at line \d+, column \d+/i).waitFor();
  await close();
  t.deepEqual(await flagKeys('checks'), []);
});

test('on a 390×844 screen the namespaces and the import dialog fit, preview included', async (t) => {
  const { page, close } = await open(t, '/settings/namespaces', { viewport: { width: 390, height: 844 } });
  await page.getByRole('button', { name: 'Export namespace source' }).waitFor();
  await expect.poll(() => page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth'), 'no sideways scrolling').toBe(false);
  await screenshot(page, 'namespaces-narrow');
  const dialog = await openImport(page, 'checks');
  await dialog.getByRole('textbox', { name: 'Document' }).fill('flags:\n- key: narrow-screen-flag-with-a-long-key\n  name: Narrow\nsegments:\n- key: phones\n  name: Phones\n');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByRole('region', { name: 'Preview' }).getByText('1 flag created; 1 segment created').waitFor();
  const box = await dialog.boundingBox();
  t.truthy(box);
  t.true(box!.x >= 0 && box!.x + box!.width <= 390, `the dialog is within the screen: ${JSON.stringify(box)}`);
  const headingInSight = async () => {
    const heading = await dialog.getByRole('heading', { name: 'Preview' }).boundingBox();
    return heading !== null && heading.y >= 0 && heading.y + heading.height <= 844;
  };
  await expect.poll(headingInSight, 'the preview is scrolled into sight').toBe(true);
  await expect(dialog.getByRole('button', { name: 'Apply' })).toBeVisible();
  await screenshot(page, 'import-dialog-narrow');
  await close();
});
