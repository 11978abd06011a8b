/**
 * The search fields of the Flags and Segments lists keep every key typed fast (a key every
 * 2 ms, faster than a person types), while the address follows what was typed: the field's value
 * does not wait for the address, and going back restores the earlier search.
 */
import test from 'ava';
import { openPage, useUiServer } from '../helpers/ui-browser.js';

const ui = useUiServer(test);
const TYPED = 'premium-eu-and-more';

test.serial('typing fast in every search field loses no keystroke and the address follows', async (t) => {
  const ns = 'typing';
  t.is((await ui.api.post('/api/v1/namespaces', { key: ns, name: ns })).status, 200);
  for (const key of ['premium-eu-and-more', 'premium-us', 'basic']) {
    t.is((await ui.api.post(`/api/v1/namespaces/${ns}/flags`, { key, name: key })).status, 200);
    t.is((await ui.api.post(`/api/v1/namespaces/${ns}/segments`, { key, name: key, matchType: 'ALL_MATCH_TYPE' })).status, 200);
  }
  for (const [path, label, count] of [
    ['flags', 'Search flags', '1 of 3 flags'],
    ['segments', 'Search segments', '1 of 3'],
  ] as const) {
    const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/${ns}/${path}`);
    const field = page.getByLabel(label);
    await field.waitFor();
    for (let round = 0; round < 3; round++) {
      await field.fill('');
      await field.pressSequentially(TYPED, { delay: 2 });
      t.is(await field.inputValue(), TYPED, `${path}, round ${round + 1}: every key kept`);
    }
    await page.getByText(count).waitFor();
    await page.waitForURL((url) => [...url.searchParams.values()].includes(TYPED));
    t.pass(`${path}: the address holds the search`);
    await page.reload();
    t.is(await page.getByLabel(label).inputValue(), TYPED, `${path}: a reload keeps the search`);
    await close();
  }
});
