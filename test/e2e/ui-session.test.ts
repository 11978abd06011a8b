/**
 * The UI's sign-in as a browser session, in a real Chromium: no page load logs an error (signed out,
 * signed in, or on a server that needs no sign-in); a pasted token is traded for an HttpOnly session
 * cookie that holds in a new tab (its writes still carry the CSRF token) and is never kept by the
 * page; a namespace-scoped token opens a session that shows and touches only its namespace and is
 * never ended by a request outside it; deleting the token ends its sessions, and the page says so.
 */
import test, { type ExecutionContext } from 'ava';
import type { Page, Response } from 'playwright-core';
import { withToken } from '../helpers/auth.js';
import { openPage, screenshot, useBrowser, useEnsign } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ADMIN = 'ui-session-admin-token';
const secured = useEnsign(test, {
  env: {
    ENSIGN_AUTHENTICATION_REQUIRED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: ADMIN,
  },
});
const open = useEnsign(test, { config: { authentication: { required: false } } });
const chromium = useBrowser(test);
const PHONE = { width: 390, height: 844 };

/** Every answer of 400 or more the page received, as `status path`. */
function refusals(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (res: Response) => {
    if (res.status() >= 400) seen.push(`${res.status()} ${new URL(res.url()).pathname}`);
  });
  return seen;
}

/** Opens `path` of the secured server where no console error is allowed, not even a refused request's. */
const openStrict = (t: ExecutionContext, path: string, viewport?: { width: number; height: number }) =>
  openPage(t, chromium.browser, `${secured.server.baseUrl}${path}`, { allowConsoleErrors: [], ...(viewport === undefined ? {} : { viewport }) });

/** Signs in on the login page with a pasted token, as a user does. */
async function pasteToken(page: Page, token: string): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Client token').fill(token);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function scopedToken(t: ExecutionContext, name: string, namespaceKey: string): Promise<{ token: string; id: string }> {
  const res = await withToken(secured.server.baseUrl, ADMIN).post('/auth/v1/method/token', { name, description: '', namespaceKey });
  t.is(res.status, 200, res.text);
  const body = res.body as { clientToken: string; authentication: { id: string } };
  return { token: body.clientToken, id: body.authentication.id };
}

test.serial.before('two team namespaces, a flag in each', async () => {
  const admin = withToken(secured.server.baseUrl, ADMIN);
  for (const key of ['team-a', 'team-b']) {
    if ((await admin.post('/api/v1/namespaces', { key, name: `Team ${key.slice(-1).toUpperCase()}` })).status !== 200) throw new Error(`namespace ${key}`);
    if ((await admin.post(`/api/v1/namespaces/${key}/flags`, { key: `${key}-checkout`, name: 'Checkout', type: 'BOOLEAN_FLAG_TYPE' })).status !== 200) throw new Error(`flag in ${key}`);
  }
});

test.serial('no page load logs an error: signed out, signing in, signed in, and where no sign-in is needed', async (t) => {
  const secure = await openStrict(t, '/namespaces/default/flags');
  const seen = refusals(secure.page);
  await pasteToken(secure.page, ADMIN);
  await secure.page.reload();
  await secure.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await secure.page.getByRole('button', { name: 'Sign out' }).click();
  await secure.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await secure.page.reload();
  await secure.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.deepEqual(seen, [], 'no request of the UI was refused');
  await secure.close();

  const opened = await openPage(t, chromium.browser, `${open.server.baseUrl}/namespaces/default/flags`, { allowConsoleErrors: [] });
  const openSeen = refusals(opened.page);
  await opened.page.getByRole('button', { name: 'New flag' }).first().waitFor();
  await opened.page.reload();
  await opened.page.getByRole('button', { name: 'New flag' }).first().waitFor();
  await expect(opened.page.getByRole('button', { name: 'Sign out' }), 'nobody to sign out').toHaveCount(0);
  t.deepEqual(openSeen, []);
  await opened.close();
});

test.serial("a pasted token's session holds in a new tab, is never kept by the page, and its writes carry the CSRF token", async (t) => {
  const { page, context, close } = await openStrict(t, '/settings/namespaces');
  await pasteToken(page, ADMIN);
  const cookie = (await context.cookies(secured.server.baseUrl)).find((c) => c.name === 'svc_client_token');
  t.like(cookie, { httpOnly: true, sameSite: 'Strict' }, 'the session is an HttpOnly cookie');
  t.not(cookie?.value, ADMIN, 'holding a session of its own, not the token');
  const kept = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })');
  t.false(kept.includes(ADMIN), 'the token is not in the storage of the page');
  t.false(kept.includes(cookie?.value ?? '-'), 'nor is the session');

  // A new tab opens signed in, and writes from it.
  const tab = await context.newPage();
  const writes: Array<string | undefined> = [];
  tab.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/v1/namespaces') writes.push(req.headers()['x-csrf-token']);
  });
  await tab.goto(`${secured.server.baseUrl}/settings/namespaces`);
  await tab.getByRole('button', { name: 'New namespace' }).click();
  const dialog = tab.getByRole('dialog', { name: 'New namespace' });
  await dialog.getByLabel('Name', { exact: true }).fill('From the new tab');
  await dialog.getByRole('button', { name: 'Create namespace' }).click();
  await dialog.waitFor({ state: 'hidden' });
  t.is((await withToken(secured.server.baseUrl, ADMIN).get('/api/v1/namespaces/from-the-new-tab')).status, 200, 'the write landed');
  t.is(writes.length, 1);
  t.regex(writes[0] ?? '', /^[\w-]{20,}$/, 'with the CSRF token of the session');

  // Signing out in one tab ends the session for both.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await tab.reload();
  await tab.getByRole('heading', { name: 'Sign in' }).waitFor();
  t.is((await withToken(secured.server.baseUrl, ADMIN).get('/auth/v1/self')).status, 200, 'the token itself still works');
  await close();
});

test.serial('a namespace-scoped token opens a session that shows and touches only its namespace', async (t) => {
  const { token } = await scopedToken(t, 'Team A lead', 'team-a');
  const { page, close } = await openStrict(t, '/');
  const seen = refusals(page);
  await pasteToken(page, token);
  await page.waitForURL('**/namespaces/team-a/flags');
  await page.getByRole('link', { name: 'team-a-checkout' }).waitFor();
  const switcher = page.getByLabel('Namespace', { exact: true });
  const offered = () => switcher.locator('option').evaluateAll((options) => options.map((o) => o.getAttribute('value')));
  await expect.poll(offered, 'the switcher offers its namespace only').toEqual(['team-a']);
  await expect.poll(async () => (await page.locator('.caller').innerText()).replace(/\s+/g, ' ')).toMatch(/Team A lead · team-a only/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }), 'no tokens page in the menu').toHaveCount(0);

  // Writes in its namespace work.
  await page.getByRole('button', { name: 'New flag' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Name', { exact: true }).fill('Team banner');
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await dialog.waitFor({ state: 'hidden' });
  t.is((await withToken(secured.server.baseUrl, ADMIN).get('/api/v1/namespaces/team-a/flags/team-banner')).status, 200);

  // Another namespace, typed into the address: said plainly, and the session stays.
  await page.goto(`${secured.server.baseUrl}/namespaces/team-b/flags`);
  await page.getByRole('heading', { name: 'Namespace "team-b" is not open to this session' }).waitFor();
  await page.getByRole('link', { name: 'Go to team-a' }).click();
  await page.getByRole('link', { name: 'team-banner' }).waitFor();

  await page.goto(`${secured.server.baseUrl}/settings/tokens`);
  await page.getByRole('heading', { name: 'Not open to this session' }).waitFor();
  await page.goto(`${secured.server.baseUrl}/settings/namespaces`);
  await page.getByRole('row').filter({ hasText: 'team-a' }).waitFor();
  await expect(page.getByRole('row').filter({ hasText: 'team-b' }), 'only its namespace is listed').toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New namespace' }), 'no namespace to create').toHaveCount(0);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  t.deepEqual(seen, [], 'nothing the UI asked for was refused, so nothing ended the session');
  await close();

  // On a phone: the menu holds the same pages.
  const phone = await openStrict(t, '/', PHONE);
  await pasteToken(phone.page, token);
  await phone.page.getByRole('link', { name: 'team-a-checkout' }).waitFor();
  await phone.page.getByRole('button', { name: 'Menu' }).click();
  await phone.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Namespaces' }).waitFor();
  await expect(phone.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' })).toHaveCount(0);
  await expect.poll(() => phone.page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), 'no sideways scroll').toBe(true);
  await screenshot(phone.page, 'session-scoped-phone');
  await phone.close();
});

test.serial('deleting the token ends the sessions opened with it, and the next load says so', async (t) => {
  const { token, id } = await scopedToken(t, 'Short-lived', 'team-b');
  const { page, context, close } = await openPage(t, chromium.browser, `${secured.server.baseUrl}/`);
  await pasteToken(page, token);
  await page.getByRole('link', { name: 'team-b-checkout' }).waitFor();
  const tab = await context.newPage();
  await tab.goto(`${secured.server.baseUrl}/namespaces/team-b/flags`);
  await tab.getByRole('link', { name: 'team-b-checkout' }).waitFor();

  t.is((await withToken(secured.server.baseUrl, ADMIN).del(`/auth/v1/tokens/${id}`)).status, 200);
  for (const p of [page, tab]) {
    await p.reload();
    await p.getByText('Your session has ended. Please sign in again.').waitFor();
  }
  t.pass('both tabs are back at the login page, saying why');
  await close();
});
