/**
 * Signing in to the UI and its API tokens, in a real Chromium against real processes: the login
 * page with two OIDC providers (real OpenID Providers on 127.0.0.1) and the token field, a login
 * through a provider (session cookie, CSRF token on writes), a deep link kept across the login,
 * signing out, a pasted token, and Settings → API tokens (create, shown once, copy, use, delete);
 * then the tokens page where authentication is not required, and where tokens are not enabled.
 */
import { type JsonClient, jsonClient } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { ok, uniqueKey } from '../helpers/api.js';
import { UNAUTHENTICATED, withToken } from '../helpers/auth.js';
import { ALICE, OIDC_BOOTSTRAP_TOKEN, type OidcEnsign, startOidcEnsign } from '../helpers/oidc-ensign.js';
import { openPage, screenshot, useBrowser, useEnsign } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const SESSION_COOKIE = 'svc_client_token';
const DAY_MS = 86_400_000;

let oidc: OidcEnsign;
/** Authentication not required, static tokens enabled. */
const open = useEnsign(test, { config: { authentication: { required: false, methods: { token: { enabled: true } } } } });
/** Authentication not required, static tokens not enabled. */
const tokenless = useEnsign(test);
const ui = useBrowser(test);

test.before(async () => {
  // The browser opens the UI at 127.0.0.1: the session cookie must be set for that host, over plain HTTP.
  oidc = await startOidcEnsign({ domain: '127.0.0.1', secure: false }, { defaultAccount: ALICE.sub });
  ok(await oidc.admin.post('/api/v1/namespaces', { key: 'shop', name: 'Shop' }), 'create namespace shop');
});

test.after.always(async () => {
  await oidc?.stop();
});

const loginHeading = (page: Page): Locator => page.getByRole('heading', { name: 'Sign in' });

/** Signs in through the provider shown as `provider` and waits until the app (or `landing`) is open. */
async function signInWith(page: Page, provider: string, landing = '/namespaces/default/flags'): Promise<void> {
  await page.getByRole('button', { name: `Sign in with ${provider}` }).click();
  await page.waitForURL(`${oidc.server.baseUrl}${landing}`);
  await page.getByText(ALICE.name ?? '', { exact: true }).waitFor();
}

async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies(oidc.server.baseUrl)).find((c) => c.name === SESSION_COOKIE)?.value;
}

/** The error shown for a form control: the `role=alert` element its `aria-describedby` points at. */
async function errorOf(page: Page, control: Locator): Promise<string | undefined> {
  if ((await control.getAttribute('aria-invalid')) !== 'true') return undefined;
  const ids = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
  for (const id of ids) {
    const element = page.locator(`[id="${id}"][role="alert"]`);
    if ((await element.count()) > 0) return (await element.textContent()) ?? '';
  }
  return undefined;
}

/** The static token named `name`, as the API lists it. */
async function tokenNamed(admin: JsonClient, name: string): Promise<{ id: string; expiresAt?: string; metadata: Record<string, string> } | undefined> {
  const list = ok(await admin.get('/auth/v1/tokens?method=METHOD_TOKEN&limit=100')) as { authentications: Array<{ id: string; expiresAt?: string; metadata: Record<string, string> }> };
  return list.authentications.find((a) => a.metadata['io.flipt.auth.token.name'] === name);
}

/** Opens the create dialog, fills it and creates; resolves the dialog showing the new token. */
async function createToken(page: Page, fields: { name: string; description?: string; namespace?: string; expiry?: string }): Promise<Locator> {
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create token' });
  await dialog.getByLabel('Name', { exact: true }).fill(fields.name);
  if (fields.description !== undefined) await dialog.getByLabel('Description').fill(fields.description);
  if (fields.namespace !== undefined) await dialog.getByLabel('Namespace access').selectOption(fields.namespace);
  if (fields.expiry !== undefined) await dialog.getByRole('button', { name: fields.expiry, exact: true }).click();
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const created = page.getByRole('dialog', { name: 'Token created' });
  await created.waitFor();
  return created;
}

test.serial('the login page names each provider and offers the client token field, light, dark and narrow', async (t) => {
  const { page, close } = await openPage(t, ui.browser, oidc.server.baseUrl);
  await loginHeading(page).waitFor();
  await page.getByRole('button', { name: 'Sign in with Alpha' }).waitFor();
  await expect(page.getByText('Ensign', { exact: true }), 'the product name').toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with Beta' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Sign in with/ }), 'no GitHub button: the code host is not enabled').toHaveCount(2);
  await expect(page.getByLabel('Client token')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByText('Your session has ended'), 'no reason: there was no session').toBeHidden();

  await page.keyboard.press('Tab');
  await expect.poll(() => page.evaluate<string>('document.activeElement?.textContent'), 'the first provider is the first stop of the keyboard').toBe('Sign in with Alpha');
  await screenshot(page, 'login');
  await close();

  const dark = await openPage(t, ui.browser, oidc.server.baseUrl, { colorScheme: 'dark' });
  await loginHeading(dark.page).waitFor();
  await dark.page.getByRole('button', { name: 'Sign in with Beta' }).waitFor();
  await screenshot(dark.page, 'login-dark');
  await dark.close();

  const narrow = await openPage(t, ui.browser, oidc.server.baseUrl, { viewport: { width: 390, height: 844 } });
  await narrow.page.getByRole('button', { name: 'Sign in with Beta' }).waitFor();
  await expect.poll(() => narrow.page.evaluate<boolean>('document.documentElement.scrollWidth <= 390'), 'nothing wider than the screen').toBe(true);
  await screenshot(narrow.page, 'login-narrow');
  await narrow.close();
});

test.serial('a provider login lands in the app, writes carry the CSRF token, and signing out ends the session', async (t) => {
  const { page, context, close } = await openPage(t, ui.browser, oidc.server.baseUrl);
  const writes: Array<{ path: string; csrf: string | undefined }> = [];
  let selfChecks = 0;
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== 'GET') writes.push({ path: `${request.method()} ${path}`, csrf: request.headers()['x-csrf-token'] });
    else if (path === '/auth/v1/session') selfChecks++;
  });
  await signInWith(page, 'Beta');
  selfChecks = 0;
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const cookie = await sessionCookie(context);
  if (cookie === undefined) return t.fail('no session cookie after the login');
  const self = await jsonClient(oidc.server.baseUrl).get('/auth/v1/self', { Cookie: `${SESSION_COOKIE}=${cookie}` });
  t.is(self.body.method, 'METHOD_OIDC');
  const csrf = self.headers.get('x-csrf-token') ?? '';
  t.not(csrf, '');

  // A write from the UI: a token, created in settings.
  await page.getByRole('link', { name: 'API tokens' }).click();
  const name = uniqueKey('ui-session');
  const created = await createToken(page, { name });
  await created.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('row').filter({ hasText: name }).waitFor();
  t.deepEqual(writes, [{ path: 'POST /auth/v1/method/token', csrf }], 'the write carried the session CSRF token');
  t.is(selfChecks, 0, 'the session is checked once per load, not again on each navigation');
  t.truthy(await tokenNamed(oidc.admin, name));

  await page.getByRole('button', { name: 'Sign out' }).click();
  await loginHeading(page).waitFor();
  t.deepEqual(writes[1], { path: 'DELETE /auth/v1/session', csrf });
  t.is(await sessionCookie(context), undefined, 'the cookie is cleared');
  await page.reload();
  await loginHeading(page).waitFor();
  await page.getByRole('button', { name: 'Sign in with Alpha' }).waitFor();
  await expect(page.getByText('Your session has ended'), 'signing out is no ended session').toBeHidden();
  await expect(page.getByRole('button', { name: 'Sign out' }), 'a reload stays on the login page').toBeHidden();
  t.deepEqual((await jsonClient(oidc.server.baseUrl).get('/auth/v1/self', { Cookie: `${SESSION_COOKIE}=${cookie}` })).body, UNAUTHENTICATED, 'the old cookie no longer works');
  await close();
});

test.serial('a deep link survives the login, and a session ended elsewhere says so', async (t) => {
  const { page, context, close } = await openPage(t, ui.browser, `${oidc.server.baseUrl}/namespaces/shop/flags`);
  await loginHeading(page).waitFor();
  await signInWith(page, 'Alpha', '/namespaces/shop/flags');
  await expect(page.getByLabel('Namespace', { exact: true })).toHaveValue('shop');

  // The session ends under the page (here: expired through the API with its own cookie).
  const cookie = await sessionCookie(context);
  const session = jsonClient(oidc.server.baseUrl);
  const csrf = (await session.get('/auth/v1/self', { Cookie: `${SESSION_COOKIE}=${cookie}` })).headers.get('x-csrf-token') ?? '';
  t.is((await session.put('/auth/v1/self/expire', undefined, { Cookie: `${SESSION_COOKIE}=${cookie}`, 'X-CSRF-Token': csrf })).status, 200);
  await page.reload();
  await loginHeading(page).waitFor();
  await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();
  await expect.poll(() => new URL(page.url()).pathname, 'the address is kept for the next login').toBe('/namespaces/shop/flags');
  await close();
});

test.serial('a pasted token signs in; a wrong one is refused beside the field and kept', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${oidc.server.baseUrl}/settings/tokens`);
  const field = page.getByLabel('Client token');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect.poll(() => errorOf(page, field)).toBe('Paste a client token');

  await field.fill('not-a-token');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByText('The token was not accepted').waitFor();
  await expect.poll(() => errorOf(page, field), "the service's answer as a sentence, next to the field").toBe('The token was not accepted: it is unknown, has expired or was deleted.');
  await expect(field, 'what was pasted is kept').toHaveValue('not-a-token');

  await field.fill(OIDC_BOOTSTRAP_TOKEN);
  await field.press('Enter');
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await expect.poll(() => new URL(page.url()).pathname, 'the page asked for').toBe('/settings/tokens');
  await expect(page.getByText('initial_bootstrap_token').first(), 'the caller in the top bar').toBeVisible();
  await page.getByRole('row').filter({ hasText: 'initial_bootstrap_token' }).getByText('Your session').waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await loginHeading(page).waitFor();
  t.is((await oidc.admin.get('/auth/v1/self')).status, 200, 'signing out of the UI ends its session without revoking the pasted token');
  await page.reload();
  await loginHeading(page).waitFor();
  await close();
});

test.serial('Settings → API tokens: create with description, namespace and expiry, shown once and copied, used, listed, deleted', async (t) => {
  const { page, context, close } = await openPage(t, ui.browser, `${oidc.server.baseUrl}/settings/tokens`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: oidc.server.baseUrl });
  await signInWith(page, 'Alpha', '/settings/tokens');
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();

  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create token' });
  const nameField = dialog.getByLabel('Name', { exact: true });
  const expiry = dialog.getByLabel('Expires on');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect.poll(async () => (await errorOf(page, nameField)) ?? '').toMatch(/^Give the token a name/);

  const name = uniqueKey('deploy');
  await nameField.fill(name);
  await dialog.getByLabel('Description').fill('CI pipeline of the shop');
  await dialog.getByLabel('Namespace access').selectOption('shop');
  // A year the service cannot take as RFC 3339: its refusal lands next to the expiry, nothing typed is lost.
  await expiry.fill('12000-01-01');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await dialog.getByText(/must be an RFC 3339 timestamp/).waitFor();
  await expect.poll(async () => (await errorOf(page, expiry)) ?? '').toMatch(/^The expiry must be an RFC 3339 timestamp/);
  await expect(nameField).toHaveValue(name);
  await expect(dialog.getByLabel('Namespace access')).toHaveValue('shop');
  await screenshot(page, 'tokens-create');

  await dialog.getByRole('button', { name: '30 days', exact: true }).click();
  await expect(dialog.getByRole('button', { name: '30 days', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => errorOf(page, expiry), 'a new choice clears the refusal').toBe(undefined);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  const created = page.getByRole('dialog', { name: 'Token created' });
  await created.waitFor();
  await expect(created.getByText('it will not be shown again')).toBeVisible();
  await expect(created.getByLabel('New token')).toHaveValue(/^\S{20,}$/);
  const clientToken = await created.getByLabel('New token').inputValue();
  await screenshot(page, 'tokens');
  await created.getByRole('button', { name: 'Copy token' }).click();
  await created.getByRole('button', { name: 'Copied' }).waitFor();
  await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()'), 'the clipboard holds the token').toBe(clientToken);

  // The token works, for its namespace only, and carries what was entered.
  const asToken = withToken(oidc.server.baseUrl, clientToken);
  t.is((await asToken.get('/api/v1/namespaces/shop/flags')).status, 200);
  t.is((await asToken.get('/api/v1/namespaces/default/flags')).status, 401, 'a token for shop only');
  const stored = await tokenNamed(oidc.admin, name);
  t.like(stored?.metadata, { 'io.flipt.auth.token.description': 'CI pipeline of the shop', 'io.flipt.auth.token.namespace': 'shop' });
  const expiresIn = Date.parse(stored?.expiresAt ?? '') - Date.now();
  t.true(expiresIn > 30 * DAY_MS - DAY_MS && expiresIn < 31 * DAY_MS, `expires at the end of the 30th day: ${stored?.expiresAt}`);

  await created.getByRole('button', { name: 'Done' }).click();
  await created.waitFor({ state: 'hidden' });
  await expect(page.getByLabel('New token'), 'the token is not shown again').toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: name });
  await row.waitFor();
  await expect(row.getByText('CI pipeline of the shop')).toBeVisible();
  await expect(row.getByText('shop', { exact: true })).toBeVisible();
  await expect(row.getByText('Never')).toBeHidden();
  await expect(row.getByText(clientToken)).toBeHidden();

  await page.getByLabel('Theme').selectOption('dark');
  await screenshot(page, 'tokens-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate<boolean>('document.documentElement.scrollWidth <= 390'), 'nothing wider than the screen').toBe(true);
  await screenshot(page, 'tokens-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel('Theme').selectOption('light');

  // Delete asks first: Cancel keeps the token.
  await row.getByRole('button', { name: `Delete token ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete token' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });
  await expect(row).toBeVisible();
  t.is((await asToken.get('/api/v1/namespaces/shop/flags')).status, 200, 'still works after Cancel');

  await row.getByRole('button', { name: `Delete token ${name}` }).click();
  await confirm.getByRole('button', { name: 'Delete token' }).click();
  await page.getByText(`Token "${name}" deleted`).waitFor();
  await row.waitFor({ state: 'detached' });
  t.is((await asToken.get('/api/v1/namespaces/shop/flags')).status, 401, 'refused once deleted');
  t.is(await tokenNamed(oidc.admin, name), undefined);
  await close();
});

test.serial('without authentication required the tokens page needs no login', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${open.server.baseUrl}/settings/tokens`);
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await expect(page.getByRole('button', { name: 'Sign out' }), 'nobody is signed in').toBeHidden();
  await page.getByRole('row').filter({ hasText: 'initial_bootstrap_token' }).waitFor();
  await expect(page.getByRole('row').filter({ hasText: 'initial_bootstrap_token' }).getByText('All namespaces')).toBeVisible();

  const name = uniqueKey('sdk');
  await page.setViewportSize({ width: 390, height: 844 });
  const created = await createToken(page, { name, description: 'mobile SDK' });
  await screenshot(page, 'tokens-created-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });
  const clientToken = await created.getByLabel('New token').inputValue();
  const self = withToken(open.server.baseUrl, clientToken);
  t.like(ok(await self.get('/auth/v1/self')), { method: 'METHOD_TOKEN', metadata: { 'io.flipt.auth.token.name': name, 'io.flipt.auth.token.description': 'mobile SDK' } });
  t.is(ok(await self.get('/auth/v1/self')).expiresAt, undefined, 'never expires');
  await page.keyboard.press('Escape');
  await created.waitFor({ state: 'hidden' });
  const row = page.getByRole('row').filter({ hasText: name });
  await row.waitFor();
  await expect(row.getByText('Never')).toBeVisible();
  await expect.poll(() => page.evaluate<string>('document.activeElement?.textContent'), 'focus returns to the button that opened the dialog').toBe('Create token');

  await row.getByRole('button', { name: `Delete token ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete token' }).getByRole('button', { name: 'Delete token' }).click();
  await row.waitFor({ state: 'detached' });
  t.is((await self.get('/auth/v1/self')).status, 401, 'refused once deleted');
  await close();
});

test.serial('where static tokens are not enabled the page says so instead of offering creation', async (t: ExecutionContext) => {
  const { page, close } = await openPage(t, ui.browser, `${tokenless.server.baseUrl}/settings/tokens`);
  await page.getByText('Static tokens are not enabled on this server').waitFor();
  await expect(page.getByRole('button', { name: 'Create token' })).toHaveCount(0);
  await page.getByText('No API tokens yet').waitFor();
  await close();
});
