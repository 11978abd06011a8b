/**
 * The UI as `ensign server` serves it: the page and its files (caching, compression, the client
 * routes), and the frame in a real Chromium (navigation, namespace switcher, themes, a narrow
 * screen), with no script errors.
 */
import test from 'ava';
import { openPage, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);

test('the page is served at / and at every client route, revalidated on each load', async (t) => {
  for (const path of ['/', '/namespaces/default/flags', '/settings/tokens/']) {
    const response = await fetch(`${ui.server.baseUrl}${path}`);
    t.is(response.status, 200, path);
    t.regex(response.headers.get('content-type') ?? '', /^text\/html/, path);
    t.is(response.headers.get('cache-control'), 'no-cache', path);
    t.regex(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, path);
    t.regex(await response.text(), /<div id="root"><\/div>/, path);
  }
});

test('hashed files are cached for a year, compressed, and answer 304 to their ETag', async (t) => {
  const page = await (await fetch(ui.server.baseUrl)).text();
  const script = page.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
  if (script === undefined) return t.fail(`no script in ${page}`);
  const plain = await fetch(`${ui.server.baseUrl}${script}`, { headers: { 'Accept-Encoding': 'identity' } });
  t.is(plain.status, 200);
  t.is(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.regex(plain.headers.get('content-type') ?? '', /^text\/javascript/);
  const body = Buffer.from(await plain.arrayBuffer());

  for (const encoding of ['br', 'gzip']) {
    // fetch decodes what it asked for: the decoded body must be the file itself.
    const compressed = await fetch(`${ui.server.baseUrl}${script}`, { headers: { 'Accept-Encoding': encoding } });
    t.is(compressed.headers.get('content-encoding'), encoding);
    t.true(Buffer.from(await compressed.arrayBuffer()).equals(body), encoding);
  }
  // fetch adds `Cache-Control: no-cache` to a conditional request unless one is given, as a browser revalidating would not.
  const again = await fetch(`${ui.server.baseUrl}${script}`, { headers: { 'If-None-Match': plain.headers.get('etag') ?? '', 'Cache-Control': 'max-age=0' } });
  t.is(again.status, 304);
});

test('a missing file is a 404 and the APIs keep their own answers', async (t) => {
  t.is((await fetch(`${ui.server.baseUrl}/assets/missing-1234.js`)).status, 404);
  const { api } = ui;
  t.deepEqual((await api.get('/api/v1/no-such-route')).body, { code: 5, message: 'Not Found', details: [] });
  t.deepEqual((await api.get('/health')).body, { status: 'SERVING' });
  t.is((await api.post('/')).status, 404, 'the UI answers reads only');
});

test('the frame: / opens the default namespace, the navigation reaches every area', async (t) => {
  const { page, close } = await openPage(t, ui.browser, ui.server.baseUrl);
  await page.waitForURL('**/namespaces/default/flags');
  await t.notThrowsAsync(page.getByRole('navigation', { name: 'Main' }).waitFor());
  for (const [link, url] of [
    ['Segments', '**/namespaces/default/segments'],
    ['Console', '**/namespaces/default/console'],
    ['Namespaces', '**/settings/namespaces'],
    ['API tokens', '**/settings/tokens'],
    ['Flags', '**/namespaces/default/flags'],
  ] as const) {
    await page.getByRole('link', { name: link, exact: true }).click();
    await page.waitForURL(url);
  }
  await expect(page.getByLabel('Namespace', { exact: true })).toHaveValue('default');
  await close();
});

test('themes: the choice sets the page colours and is kept across loads', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/default/flags`);
  const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  const light = await background();
  await page.getByLabel('Theme').selectOption('dark');
  await expect.poll(background, 'the dark theme has colours of its own').not.toBe(light);
  const dark = await background();
  await page.reload();
  await expect.poll(background, 'kept after a reload').toBe(dark);
  await screenshot(page, 'frame-dark');
  await page.getByLabel('Theme').selectOption('system');
  await expect.poll(background, 'the system theme of this browser is light').toBe(light);
  await close();
});

test('a narrow screen hides the navigation behind the menu button', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/default/flags`, { viewport: { width: 390, height: 844 } });
  const nav = page.getByRole('navigation', { name: 'Main' });
  // The page has rendered: the frame with its menu button, and the flags page in it.
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.waitFor({ state: 'visible' });
  await page.getByRole('heading', { name: 'Flags', exact: true, level: 1 }).waitFor({ state: 'visible' });
  await expect(nav, 'hidden behind the menu button').toBeHidden();
  await menu.click();
  await t.notThrowsAsync(nav.waitFor({ state: 'visible' }), 'the menu button shows it');
  await page.getByRole('link', { name: 'Segments', exact: true }).click();
  await page.waitForURL('**/namespaces/default/segments');
  await t.notThrowsAsync(nav.waitFor({ state: 'hidden' }), 'closed again after choosing');
  await close();
});

test('an unknown namespace in the address says so', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/no-such-ns/flags`);
  await t.notThrowsAsync(page.getByText('Namespace "no-such-ns" not found').waitFor());
  await close();
});
