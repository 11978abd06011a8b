/**
 * Every search and filter text field of the UI keeps every key typed fast: the Flags and Segments
 * list searches (whose address follows what was typed: the field's value does not wait for the
 * address, and a reload restores the search), the "Filter segments" box of the rule and rollout
 * dialogs (shown from nine segments up), the Console's flag field, and the jump bar's field
 * (Ctrl-K). (The Activity page filters with selects only, and the API tokens page has no filter.)
 *
 * The text is typed three times at a key every 2 ms, faster than a person types, and the field
 * must then hold all of it; then three times with no delay between keys under a probe
 * (`@ensign/testkit/key-probe`) that reads the field after each key: it must hold every key so far.
 * How fast each key is answered is measured by `npm run bench:typing`, not here.
 */
import { installKeyProbe, KEY_PROBE_KEYS, type KeyTiming } from '@ensign/testkit/key-probe';
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { openPage, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);
const NS = 'typing';
const TYPED = 'premium-eu-and-more';
/** Flags and segments besides the three the searches look for: enough that filtering has work to do, and that the dialogs offer a filter. */
const FILLERS = 40;

test.serial.before('three flags and segments to search for among forty others, and a boolean flag for rollouts', async (t) => {
  const post = async (path: string, body: unknown) => {
    const res = await ui.api.post(path, body);
    t.is(res.status, 200, `POST ${path}: ${res.text}`);
  };
  await post('/api/v1/namespaces', { key: NS, name: NS });
  const keys = ['premium-eu-and-more', 'premium-us', 'basic', ...Array.from({ length: FILLERS }, (_, i) => `filler-${String(i).padStart(2, '0')}`)];
  for (const key of keys) {
    await post(`/api/v1/namespaces/${NS}/flags`, { key, name: key, type: 'VARIANT_FLAG_TYPE' });
    await post(`/api/v1/namespaces/${NS}/segments`, { key, name: key, matchType: 'ALL_MATCH_TYPE' });
  }
  await post(`/api/v1/namespaces/${NS}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE' });
});

const open = (t: ExecutionContext, path: string) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`);

/**
 * Types `TYPED` into `field` three times at 2 ms a key, then three times with no delay under the
 * probe; asserts every key kept. Leaves `TYPED` in the field.
 */
async function typeFast(t: ExecutionContext, page: Page, field: Locator, name: string): Promise<void> {
  await field.waitFor();
  for (let round = 0; round < 3; round++) {
    await field.fill('');
    await field.pressSequentially(TYPED, { delay: 2 });
    await expect(field, `${name}, round ${round + 1} at 2 ms a key: every key kept`).toHaveValue(TYPED);
  }
  for (let round = 0; round < 3; round++) {
    await field.fill('');
    await field.evaluate(installKeyProbe);
    await field.pressSequentially(TYPED, { delay: 0 });
    await page.waitForFunction(`${KEY_PROBE_KEYS}.length >= ${TYPED.length}`);
    const keys = await page.evaluate<KeyTiming[]>(KEY_PROBE_KEYS);
    t.deepEqual(
      keys.map((k) => k.value),
      [...TYPED].map((_, i) => TYPED.slice(0, i + 1)),
      `${name}, round ${round + 1} with no delay: after each key the field holds every key so far`,
    );
  }
}

test.serial('the Flags and Segments searches keep every key, and the address follows', async (t) => {
  const total = FILLERS + 3;
  for (const [path, label, count] of [
    ['flags', 'Search flags', `1 of ${total + 1} flags`],
    ['segments', 'Search segments', `1 of ${total}`],
  ] as const) {
    const { page, close } = await open(t, `/namespaces/${NS}/${path}`);
    const field = page.getByLabel(label);
    await typeFast(t, page, field, path);
    await page.getByText(count).waitFor();
    await page.waitForURL((url) => [...url.searchParams.values()].includes(TYPED));
    t.pass(`${path}: the address holds the search`);
    await page.reload();
    await expect(page.getByLabel(label), `${path}: a reload keeps the search`).toHaveValue(TYPED);
    await close();
  }
});

test.serial('the "Filter segments" box of the rule and rollout dialogs keeps every key', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/basic`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const rule = page.getByRole('dialog', { name: 'Add rule' });
  await typeFast(t, page, rule.getByLabel('Filter segments'), 'rule dialog');
  // What the filter leaves: the one segment typed, and no other.
  await rule.getByRole('checkbox', { name: 'premium-eu-and-more' }).waitFor();
  await rule.getByRole('checkbox', { name: 'premium-us' }).waitFor({ state: 'detached' });
  await rule.getByLabel('Filter segments').fill('no-such-segment');
  await rule.getByText('No segment matches “no-such-segment”.').waitFor();
  await rule.getByRole('button', { name: 'Cancel' }).click();
  await rule.waitFor({ state: 'hidden' });

  await page.goto(`${ui.server.baseUrl}/namespaces/${NS}/flags/banner`);
  await page.getByRole('button', { name: 'Add rollout' }).click();
  const rollout = page.getByRole('dialog', { name: 'Add rollout' });
  await rollout.getByRole('radio', { name: 'Segment' }).check();
  await typeFast(t, page, rollout.getByLabel('Filter segments'), 'rollout dialog');
  await rollout.getByRole('checkbox', { name: 'premium-eu-and-more' }).waitFor();
  await rollout.getByRole('checkbox', { name: 'filler-00' }).waitFor({ state: 'detached' });
  await close();
});

test.serial('the Console’s flag field keeps every key and finds the flag typed', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/console`);
  const field = page.getByLabel('Flag', { exact: true });
  await page.getByText('Type to search the flags of this namespace.').waitFor();
  await typeFast(t, page, field, 'console');
  await page.getByRole('link', { name: 'Open flag' }).waitFor();
  await page.waitForURL((url) => url.searchParams.get('flag') === TYPED);
  // A key that is no flag is said to be one.
  await field.pressSequentially('-x', { delay: 2 });
  await page.getByText(`No flag “${TYPED}-x” in this namespace`).waitFor();
  await close();
});

test.serial('the jump bar’s field keeps every key and finds what was typed', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags`);
  await page.getByRole('link', { name: 'basic', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const field = page.getByRole('combobox', { name: 'Search for a flag, segment, page or namespace' });
  await typeFast(t, page, field, 'jump bar');
  await page.getByRole('option', { name: /premium-eu-and-more/ }).first().waitFor();
  await close();
});

test.serial('the "Filter segments" box lists at most 50 segments not chosen, says how many more, and finds the rest', async (t) => {
  const ns = 'many-segments';
  t.is((await ui.api.post('/api/v1/namespaces', { key: ns, name: ns })).status, 200);
  t.is((await ui.api.post(`/api/v1/namespaces/${ns}/flags`, { key: 'f', name: 'f', type: 'VARIANT_FLAG_TYPE' })).status, 200);
  for (let i = 0; i < 55; i++) {
    const key = `seg-${String(i).padStart(2, '0')}`;
    t.is((await ui.api.post(`/api/v1/namespaces/${ns}/segments`, { key, name: key, matchType: 'ALL_MATCH_TYPE' })).status, 200);
  }
  const { page, close } = await open(t, `/namespaces/${ns}/flags/f`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add rule' });
  await dialog.getByText('5 more segments are not listed: type in the filter to find one.').waitFor();
  await expect(dialog.getByRole('checkbox')).toHaveCount(50);
  await expect(dialog.getByRole('checkbox', { name: 'seg-54' }), 'the last ones are not listed').toHaveCount(0);

  const filter = dialog.getByLabel('Filter segments');
  await filter.pressSequentially('seg-54', { delay: 2 });
  await dialog.getByRole('checkbox', { name: 'seg-54' }).check();
  await filter.fill('');
  await dialog.getByText('4 more segments are not listed').waitFor();
  await expect(dialog.getByRole('checkbox', { name: 'seg-54' }), 'a chosen segment stays listed').toBeChecked();
  await expect(dialog.getByRole('checkbox'), 'fifty not chosen, and the chosen one').toHaveCount(51);
  await filter.fill('seg-5');
  await dialog.getByRole('checkbox', { name: 'seg-50' }).waitFor();
  await expect(dialog.getByRole('checkbox'), 'a filter matching few lists them all').toHaveCount(5);
  await expect(dialog.getByText(/not listed/)).toHaveCount(0);
  await close();
});
