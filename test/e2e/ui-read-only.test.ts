/**
 * The UI of a read-only server in a real Chromium: flags served from a directory of Flipt feature
 * files (`storage.type: local`, authentication on, signed in with a pasted token). Every page says
 * where the flags come from and when they were last applied; the flag, segment and namespace
 * screens show their data without a single enabled control that writes; the console evaluates,
 * export and token creation still work; the same holds at 390×844 in dark mode; a refused edit of
 * the files shows as a warning. A database server shows no banner and offers its write controls,
 * one made read-only by `storage.read_only` says so, and a server without `/meta/info` counts as
 * writable. The tests run one after another in one browser.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonClient, scratchDir, startEnsign } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useBrowser, useEnsign } from '../helpers/ui-browser.js';
import { enabledControls } from '../helpers/ui-controls.js';
import { expect } from '../helpers/ui-expect.js';
import { signInWithToken } from '../helpers/ui-session.js';

const TOKEN = 'read-only-ui-s3cret';

/** The shop namespace: a variant flag whose rule sends pro users to blue (the default is red), and the pro segment. */
const FEATURES = `version: "1.4"
namespace: {key: shop, name: Shop, description: The online shop}
flags:
  - key: color
    name: Color
    description: The colour of the buy button
    type: VARIANT_FLAG_TYPE
    enabled: true
    variants:
      - {key: red, name: Red, default: true}
      - {key: blue, name: Blue, attachment: {hex: "#00f"}}
    rules:
      - segment: pro
        distributions:
          - {variant: blue, rollout: 100}
segments:
  - key: pro
    name: Pro users
    match_type: ALL_MATCH_TYPE
    constraints:
      - {type: STRING_COMPARISON_TYPE, property: plan, operator: eq, value: pro}
`;

const dir = scratchDir('ensign-ui-read-only-');
writeFileSync(join(dir, 'features.yml'), FEATURES);

const files = useEnsign(test, {
  env: {
    ENSIGN_STORAGE_TYPE: 'local',
    ENSIGN_STORAGE_LOCAL_PATH: dir,
    ENSIGN_AUTHENTICATION_REQUIRED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: TOKEN,
  },
});
const database = useEnsign(test);
const chromium = useBrowser(test);
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const HEADLINE = `Read-only: flags are served from directory ${dir}`;

/** Opens `path` of the read-only server signed in with the token, as the sign-in screen signs in. */
async function openSignedIn(t: ExecutionContext, path: string, options: PageOptions = {}) {
  const opened = await openPage(t, chromium.browser, `${files.server.baseUrl}/favicon.svg`, options);
  t.is(await signInWithToken(opened.page, TOKEN), 200);
  await opened.page.goto(`${files.server.baseUrl}${path}`);
  return opened;
}

const banner = (page: Page) => page.getByRole('region', { name: 'Read-only' });

/** The page is no wider than the window: nothing scrolls sideways. */
const overflow = (page: Page): Promise<number> => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

async function expectReadOnlyFlagPage(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Color', level: 1 }).waitFor();
  // The data, as the files hold it.
  await page.getByRole('row').filter({ hasText: 'Red' }).getByText('Default', { exact: true }).waitFor();
  await expect(page.getByRole('cell', { name: 'blue', exact: true })).toBeVisible();
  const rule = page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: 'Rule 1', exact: true });
  await expect(rule.getByRole('link', { name: 'pro', exact: true }), 'the rule names its segment').toBeVisible();
  await expect(rule.getByRole('list', { name: 'Distribution of rule 1' })).toHaveText(/blue\s*→\s*100%/, { useInnerText: true });
  const defaultVariant = () => page.getByLabel('Default variant').evaluate((select) => (select as unknown as { selectedOptions: Array<{ text: string }> }).selectedOptions[0]?.text);
  await expect.poll(defaultVariant).toBe('red (Red)');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Color');

  // Nothing that writes is enabled: only the key can be copied.
  await expect.poll(() => enabledControls(page)).toEqual(['Copy key']);
  for (const name of ['Delete flag', 'Add variant', 'Add rule']) {
    const button = page.getByRole('button', { name });
    await expect(button, name).toBeDisabled();
    await expect(button, `${name} says why`).toHaveAttribute('title', HEADLINE);
  }
  const enabled = page.getByRole('switch', { name: 'Enabled' });
  await expect(enabled, 'the flag is enabled in the files').toBeChecked();
  await expect(enabled).toBeDisabled();
  await expect(page.getByLabel('Default variant')).toBeDisabled();
  for (const name of [/^Edit/, /^Delete variant/, 'Move up', 'Move down', /^Save/]) await expect(page.getByRole('button', { name }), `no ${String(name)} button`).toHaveCount(0);
  await expect(page.locator('.drag-handle, [draggable="true"]'), 'nothing to drag').toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Evaluate in console' })).toBeVisible();
}

test.serial('a directory of feature files: the banner names it, the flag shows its data without a control that writes', async (t) => {
  const { page, close } = await openSignedIn(t, '/namespaces/shop/flags');
  const region = banner(page);
  await region.waitFor();
  await expect(region.locator('.read-only-headline')).toHaveText(HEADLINE, { useInnerText: true });
  await expect(region).toHaveText(/in the feature files/, { useInnerText: true });
  const synced = region.locator('time');
  await expect(synced).toHaveText(/^(just now|\d+ minutes? ago)$/, { useInnerText: true });
  await expect(synced, 'the exact time on hover').toHaveAttribute('title', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  await expect(region.locator('.read-only-refused'), 'no refused change').toHaveCount(0);

  const newFlag = page.getByRole('button', { name: 'New flag' });
  await expect(newFlag).toBeDisabled();
  await expect(newFlag).toHaveAttribute('title', HEADLINE);
  await page.getByRole('link', { name: 'color' }).click();
  await page.waitForURL('**/namespaces/shop/flags/color');
  await expect(banner(page), 'on every page').toBeVisible();
  await expectReadOnlyFlagPage(page);
  await screenshot(page, 'read-only-flag', { fullPage: true });

  // History and usage are reading: they work as anywhere.
  await page.getByRole('link', { name: 'History' }).click();
  await page.getByRole('heading', { name: 'History' }).waitFor();
  await page.getByRole('link', { name: 'Usage' }).click();
  await page.waitForURL('**/flags/color/usage');
  await expect(banner(page)).toBeVisible();

  // The timeline is read too; scheduling a change is a write.
  await page.getByRole('link', { name: 'Timeline' }).click();
  await page.getByText('Nothing scheduled').waitFor();
  const schedule = page.getByRole('button', { name: 'Schedule a change' });
  await expect(schedule).toBeDisabled();
  await expect(schedule).toHaveAttribute('title', HEADLINE);
  await expect.poll(() => enabledControls(page)).toEqual(['Copy key']);
  await close();
});

test.serial('segments, namespaces and tokens: reading and export work, writing is not offered, tokens can still be created', async (t) => {
  const { page, close } = await openSignedIn(t, '/namespaces/shop/segments');
  await page.getByRole('link', { name: 'Pro users' }).waitFor();
  await expect(page.getByRole('button', { name: 'New segment' })).toBeDisabled();
  await page.getByRole('link', { name: 'Pro users' }).click();
  await page.getByRole('cell', { name: 'plan' }).waitFor();
  await expect.poll(() => enabledControls(page)).toEqual(['Copy key']);
  for (const name of ['Delete segment', 'Add constraint']) {
    await expect(page.getByRole('button', { name }), name).toBeDisabled();
    await expect(page.getByRole('button', { name })).toHaveAttribute('title', HEADLINE);
  }
  await expect(page.getByLabel('Match type')).toBeDisabled();

  await page.getByRole('link', { name: 'Namespaces', exact: true }).click();
  await page.getByRole('cell', { name: 'shop', exact: true }).waitFor();
  await expect(banner(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'New namespace' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Import into namespace shop' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Import into namespace shop' })).toHaveAttribute('title', HEADLINE);
  await expect(page.getByRole('button', { name: /^(Edit|Delete) namespace/ })).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export namespace shop' }).click()]);
  t.is(download.suggestedFilename(), 'shop.yaml');
  t.regex(await readFile(await download.path(), 'utf8'), /key: color/, 'export works');

  // Tokens are not flags: creating one still works.
  await page.getByRole('link', { name: 'API tokens' }).click();
  const create = page.getByRole('button', { name: 'Create token' });
  await create.click();
  const dialog = page.getByRole('dialog', { name: 'Create token' });
  await dialog.getByLabel('Name', { exact: true }).fill('ci');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('dialog', { name: 'Token created' }).waitFor();
  const tokens = await jsonClient(files.server.baseUrl).get('/auth/v1/tokens?method=METHOD_TOKEN', AUTH);
  t.true((tokens.body.authentications as Array<{ metadata: Record<string, string> }>).some((a) => a.metadata['io.flipt.auth.token.name'] === 'ci'));
  await expect(page.locator('main [title^="Read-only"]'), 'nothing on the tokens page is locked').toHaveCount(0);
  await close();
});

test.serial('the console evaluates the flags of the files', async (t) => {
  const { page, close } = await openSignedIn(t, '/namespaces/shop/console?flag=color');
  await banner(page).waitFor();
  await page.getByLabel('Entity ID').fill('user-1');
  await page.getByLabel('Context key 1').fill('plan');
  await page.getByLabel('Context value 1').fill('pro');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.getByText('Matched a rule').waitFor();
  await expect(result.locator('.result-variant')).toHaveText('blue', { useInnerText: true });
  await close();
});

test.serial('390×844 in dark mode: the banner wraps, nothing scrolls sideways, still no control that writes', async (t) => {
  const { page, close } = await openSignedIn(t, '/namespaces/shop/flags/color', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  await banner(page).waitFor();
  await expectReadOnlyFlagPage(page);
  await expect(banner(page)).toBeVisible();
  await expect.poll(() => overflow(page), 'the flag page').toBe(0);
  const background = await page.evaluate<string>(`getComputedStyle(document.querySelector('.read-only-banner')).backgroundColor`);
  const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
  t.true(r + g + b < 300, `a dark banner (${background})`);
  const box = await banner(page).boundingBox();
  t.true(box !== null && box.x >= 0 && box.x + box.width <= 390, 'the banner fits the width');
  await screenshot(page, 'read-only-narrow-dark', { fullPage: true });
  for (const path of ['/namespaces/shop/flags', '/namespaces/shop/segments/pro', '/settings/namespaces', '/namespaces/shop/console']) {
    await page.goto(`${files.server.baseUrl}${path}`);
    await banner(page).waitFor();
    await page.locator('main h1').waitFor();
    await expect.poll(() => overflow(page), path).toBe(0);
  }
  await close();
});

test.serial('a refused edit of the files: the banner says so while the previous state keeps serving', async (t) => {
  const api = jsonClient(files.server.baseUrl);
  const file = join(dir, 'features.yml');
  await writeFile(file, FEATURES.replace('{variant: blue, rollout: 100}', '{variant: purple, rollout: 100}'));
  t.teardown(() => writeFile(file, FEATURES));
  const started = Date.now();
  let lastError: string | undefined;
  while (lastError === undefined && Date.now() - started < 10_000) {
    lastError = (await api.get('/meta/info', AUTH)).body.storage?.metadata?.lastError;
    if (lastError === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (lastError === undefined) return t.fail('the server did not report the invalid edit');

  const { page, close } = await openSignedIn(t, '/namespaces/shop/flags/color', { viewport: { width: 390, height: 844 } });
  const refused = banner(page).locator('.read-only-refused');
  await refused.waitFor();
  await expect.poll(async () => (await refused.innerText()).replace(/^⚠\s*/, '')).toBe(`The latest change was refused: ${lastError}; still serving the previous state.`);
  await expectReadOnlyFlagPage(page);
  await expect.poll(() => overflow(page)).toBe(0);
  await screenshot(page, 'read-only-refused-narrow');
  await close();
});

test.serial('a database server: no banner, and the controls that write are there', async (t) => {
  const api = database.api;
  t.is((await api.post('/api/v1/namespaces/default/flags', { key: 'beta', name: 'Beta', type: 'VARIANT_FLAG_TYPE', enabled: true })).status, 200);
  const { page, close } = await openPage(t, chromium.browser, `${database.server.baseUrl}/namespaces/default/flags`);
  await page.getByRole('link', { name: 'beta' }).waitFor();
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New flag' })).toBeEnabled();
  await page.getByRole('link', { name: 'beta' }).click();
  await page.getByRole('heading', { name: 'Beta', level: 1 }).waitFor();
  // A trial click waits until the button is enabled (the rules card enables Add rule once its segments are loaded).
  for (const name of ['Delete flag', 'Add variant', 'Add rule']) t.true(await page.getByRole('button', { name }).click({ trial: true, timeout: 10_000 }).then(() => true, () => false), name);
  await expect(page.getByRole('button', { name: 'Save details' }), 'the details can be saved once changed').toHaveCount(1);
  await expect(page.getByRole('switch', { name: 'Enabled' })).toBeEnabled();
  await expect(page.locator('main [title^="Read-only"]')).toHaveCount(0);
  await close();
});

test.serial('database storage made read-only by storage.read_only: the banner names the settings', async (t) => {
  const server = await startEnsign({ env: { ENSIGN_LOG_LEVEL: 'warn', ENSIGN_STORAGE_READ_ONLY: 'true' } });
  t.teardown(() => server.stop());
  const { page, close } = await openPage(t, chromium.browser, `${server.baseUrl}/settings/namespaces`);
  await banner(page).waitFor();
  await expect(banner(page).locator('.read-only-headline')).toHaveText("Read-only: this server's settings allow no changes", { useInnerText: true });
  await expect(banner(page).locator('time'), 'no sync time for a database').toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New namespace' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'New namespace' })).toHaveAttribute('title', "Read-only: this server's settings allow no changes");
  await close();
});

test.serial('a server without /meta/info (older) counts as writable', async (t) => {
  const { page, close } = await openPage(t, chromium.browser, `${files.server.baseUrl}/favicon.svg`);
  await page.route('**/meta/info', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":5,"message":"Not Found","details":[]}' }));
  t.is(await signInWithToken(page, TOKEN), 200);
  await page.goto(`${files.server.baseUrl}/namespaces/shop/flags`);
  await page.getByRole('link', { name: 'color' }).waitFor();
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New flag' })).toBeEnabled();
  await close();
});
