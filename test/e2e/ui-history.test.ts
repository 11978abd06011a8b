/**
 * The change history in a real Chromium against a real `ensign server`: a flag's and a segment's
 * History tab after edits made through the UI (what, who, when, and the changed fields as a user
 * reads them), the namespace's Activity page (newest first, filters kept in the address, links to
 * flags and segments, also a deleted one, "Load older"), and both on a phone-sized screen. Each
 * test seeds a namespace of its own through the API; they run one after another.
 */
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);

const open = (t: ExecutionContext, path: string, options?: PageOptions) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, options);

/** Creates through the API, failing the test on anything but 200; resolves the body. */
async function create(t: ExecutionContext, path: string, body: unknown): Promise<{ id: string }> {
  const res = await ui.api.post(path, body);
  t.is(res.status, 200, `POST ${path}: ${res.text}`);
  return res.body as { id: string };
}

/** A namespace with segment `beta` and flag `flag-x` (variants blue and green, a 50/50 rule on beta). */
async function seedFlag(t: ExecutionContext, ns: string, attachment = ''): Promise<void> {
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  const api = `/api/v1/namespaces/${ns}`;
  await create(t, `${api}/segments`, { key: 'beta', name: 'Beta users', matchType: 'ALL_MATCH_TYPE' });
  await create(t, `${api}/flags`, { key: 'flag-x', name: 'flag-x', type: 'VARIANT_FLAG_TYPE', enabled: true });
  const blue = await create(t, `${api}/flags/flag-x/variants`, { key: 'blue', name: 'Blue', attachment });
  const green = await create(t, `${api}/flags/flag-x/variants`, { key: 'green', name: 'Green' });
  const rule = await create(t, `${api}/flags/flag-x/rules`, { segmentKey: 'beta', rank: 1 });
  await create(t, `${api}/flags/flag-x/rules/${rule.id}/distributions`, { variantId: blue.id, rollout: 50 });
  await create(t, `${api}/flags/flag-x/rules/${rule.id}/distributions`, { variantId: green.id, rollout: 50 });
}

/** The entries of the change list on the page, newest first. */
const changes = (page: Page): Locator => page.getByRole('list', { name: 'Changes' }).locator(':scope > li');
const change = (page: Page, what: string): Locator => page.getByRole('list', { name: 'Changes' }).getByRole('listitem', { name: what, exact: true });
/** What each entry says it did, newest first. */
const summaries = (page: Page): Locator => changes(page).locator('.change-what');
/** The changed-field lines of an entry, as a user reads them. */
const linesOf = (entry: Locator): Locator => entry.getByRole('list', { name: 'Changed fields' }).getByRole('listitem');

const noSideways = (page: Page): Promise<boolean> => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

test.serial('a flag’s History tab: a rename and a distribution changed in the UI, read as field: old → new', async (t) => {
  await seedFlag(t, 'hist-flag');
  const { page, close } = await open(t, '/namespaces/hist-flag/flags/flag-x/history');
  await change(page, 'Created the flag').waitFor();
  await expect(page.getByRole('link', { name: 'History' }), 'the History tab is the current one').toHaveAttribute('aria-current', 'page');
  await expect(summaries(page)).toHaveText([
    'Created the distribution to green in the rule for beta',
    'Created the distribution to blue in the rule for beta',
    'Created the rule for beta',
    'Created variant green',
    'Created variant blue',
    'Created the flag',
  ]);
  await expect(linesOf(change(page, 'Created the flag'))).toHaveText(['key: flag-x', 'name: flag-x', 'enabled: true', 'type: VARIANT_FLAG_TYPE']);
  await page.getByText('6 changes', { exact: true }).waitFor();

  // Edits on the Overview tab: the name, then the rule's split.
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Renamed');
  await page.getByRole('button', { name: 'Save details' }).click();
  await page.getByRole('heading', { name: 'Renamed', level: 1 }).waitFor();
  const rule = page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: 'Rule 1', exact: true });
  await rule.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit rule' });
  await edit.getByLabel('blue percentage').fill('30');
  await edit.getByLabel('green percentage').fill('70');
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await edit.waitFor({ state: 'hidden' });
  await rule.getByText('30%').waitFor();

  // Back to History by keyboard: the writes are there at once, newest first.
  await page.getByRole('link', { name: 'History' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL('**/flags/flag-x/history');
  await page.getByText('9 changes', { exact: true }).waitFor();
  // The two distributions were written at once: in either order.
  await expect.poll(async () => (await summaries(page).allTextContents()).slice(0, 2).sort()).toEqual(['Updated the distribution to blue in the rule for beta', 'Updated the distribution to green in the rule for beta']);
  await expect(summaries(page).nth(2)).toHaveText('Updated the flag');
  await expect(linesOf(change(page, 'Updated the flag')), 'only the field that changed').toHaveText(['name: flag-x → Renamed']);
  await expect(linesOf(change(page, 'Updated the distribution to blue in the rule for beta'))).toHaveText(['rollout: 50 → 30']);
  await expect(linesOf(change(page, 'Updated the distribution to green in the rule for beta'))).toHaveText(['rollout: 50 → 70']);

  // Who and when: no authentication here, so anonymous; the exact time in the title.
  const rename = change(page, 'Updated the flag');
  await expect(rename.locator('.change-meta')).toHaveText(/^anonymous · just now$/);
  await expect(rename.locator('time')).toHaveAttribute('title', /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);

  // A write made on the History tab itself (the header's switch) shows up without leaving it.
  await page.getByRole('switch', { name: 'Enabled' }).click();
  await page.getByText('10 changes', { exact: true }).waitFor();
  await expect(summaries(page).first()).toHaveText('Updated the flag');
  await expect(linesOf(changes(page).first())).toHaveText(['enabled: true → false']);
  await screenshot(page, 'flag-history', { fullPage: true });
  await close();
});

test.serial('a segment’s History tab lists a constraint added in the UI; a refused listing offers Retry', async (t) => {
  await create(t, '/api/v1/namespaces', { key: 'hist-segment', name: 'hist-segment' });
  await create(t, '/api/v1/namespaces/hist-segment/segments', { key: 'pro', name: 'Pro customers', matchType: 'ALL_MATCH_TYPE' });
  const { page, close } = await open(t, '/namespaces/hist-segment/segments/pro');
  await page.getByRole('button', { name: 'Add constraint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add constraint' });
  await dialog.getByLabel('Type').selectOption({ label: 'String' });
  await dialog.getByLabel('Property').fill('plan');
  await dialog.getByLabel('Operator').selectOption({ label: 'equals' });
  await dialog.getByLabel('Value', { exact: true }).fill('pro');
  await dialog.getByRole('button', { name: 'Save constraint' }).click();
  await dialog.waitFor({ state: 'hidden' });

  // A refused listing says why, with Retry; the retry shows the changes.
  await page.route('**/audit/events?*', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ code: 3, message: 'the history is unavailable' }) }));
  await page.getByRole('navigation', { name: 'Segment sections' }).getByRole('link', { name: 'History' }).click();
  await page.waitForURL('**/segments/pro/history');
  await page.getByRole('alert').getByText('the history is unavailable').waitFor();
  await page.unroute('**/audit/events?*');
  await page.getByRole('button', { name: 'Retry' }).click();
  await change(page, 'Created the constraint on plan').waitFor();
  await expect(summaries(page)).toHaveText(['Created the constraint on plan', 'Created the segment']);
  await expect(linesOf(change(page, 'Created the constraint on plan')), 'the segment it belongs to left out').toHaveText(['type: STRING_COMPARISON_TYPE', 'property: plan', 'operator: eq', 'value: pro']);
  await expect(linesOf(change(page, 'Created the segment'))).toHaveText(['key: pro', 'name: Pro customers', 'matchType: ALL_MATCH_TYPE']);
  await expect(page.getByRole('button', { name: 'Load older' }), 'one page holds it all').toHaveCount(0);
  await close();
});

test.serial('the Activity page: newest first, filters in the address, links to flags and segments, Load older', async (t) => {
  const ns = 'hist-activity';
  const api = `/api/v1/namespaces/${ns}`;
  await create(t, '/api/v1/namespaces', { key: ns, name: ns });
  for (let i = 0; i < 26; i++) await create(t, `${api}/flags`, { key: `f-${String(i).padStart(2, '0')}`, name: `F ${i}`, type: 'BOOLEAN_FLAG_TYPE', enabled: false });
  await create(t, `${api}/segments`, { key: 'staff', name: 'Staff', matchType: 'ANY_MATCH_TYPE' });
  await create(t, `${api}/flags`, { key: 'gone', name: 'Gone', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
  t.is((await ui.api.del(`${api}/flags/gone`)).status, 200);
  const stored = (await ui.api.get(`${api}/audit/events?limit=1000`)).body as { events: Array<{ key: string; parentKey?: string; at: string }>; totalCount: number };
  t.is(stored.totalCount, 30, 'the namespace, 27 flags, a segment, a deletion');

  const { page, close } = await open(t, `/namespaces/${ns}/flags`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
  await page.waitForURL(`**/namespaces/${ns}/activity`);
  await page.getByText('The newest 25 of 30 changes', { exact: true }).waitFor();
  await expect.poll(async () => (await summaries(page).allTextContents()).slice(0, 3)).toEqual(['Deleted the flag', 'Created the flag', 'Created the segment']);
  await expect(changes(page).locator('.change-owner a'), 'in the service’s order, newest first').toHaveText(stored.events.slice(0, 25).map((e) => e.parentKey ?? e.key));
  const times = () => changes(page).locator('time').evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''));
  await expect.poll(async () => (await times()).filter((time, i, all) => i > 0 && time > all[i - 1]!), 'newest first: no time later than the one above it').toEqual([]);

  // Load older, from the keyboard: the rest, down to the namespace's creation.
  await page.getByRole('button', { name: 'Load older' }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('30 changes', { exact: true }).waitFor();
  await expect(summaries(page).last()).toHaveText('Created the namespace');
  await expect(page.getByRole('button', { name: 'Load older' }), 'nothing older').toHaveCount(0);

  // Filters, kept in the address.
  await page.getByLabel('Type').selectOption({ label: 'Segments' });
  await page.waitForURL(/type=segment/);
  await page.getByText('1 change', { exact: true }).waitFor();
  await expect(summaries(page)).toHaveText(['Created the segment']);
  await page.getByLabel('Type').selectOption({ label: 'Flags' });
  await page.getByText('The newest 25 of 28 changes', { exact: true }).waitFor();
  await page.getByLabel('Action').selectOption({ label: 'Deleted' });
  await page.waitForURL(/type=flag&action=deleted/);
  await page.getByText('1 change', { exact: true }).waitFor();
  await expect(summaries(page)).toHaveText(['Deleted the flag']);
  await expect(linesOf(change(page, 'Deleted the flag'))).toHaveText(['key: gone', 'name: Gone', 'enabled: true', 'type: BOOLEAN_FLAG_TYPE']);
  await page.reload();
  await change(page, 'Deleted the flag').waitFor();
  await expect(page.getByLabel('Action'), 'the address keeps the filters').toHaveValue('deleted');

  await page.getByLabel('Action').selectOption({ label: 'Reordered' });
  await page.getByText('No changes match these filters').waitFor();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByText('The newest 25 of 30 changes', { exact: true }).waitFor();

  // A link to a deleted flag: not found, with the way to its changes.
  await change(page, 'Deleted the flag').getByRole('link', { name: 'gone' }).click();
  await page.getByText('Flag "gone" not found').waitFor();
  await page.getByRole('link', { name: 'See its changes' }).click();
  await page.waitForURL(/\/activity\?key=gone$/);
  await page.getByText('2 changes', { exact: true }).waitFor();
  await expect(summaries(page)).toHaveText(['Deleted the flag', 'Created the flag']);
  await page.getByRole('button', { name: 'Show all keys' }).click();
  await page.getByText('The newest 25 of 30 changes', { exact: true }).waitFor();

  // Links to what still exists.
  await change(page, 'Created the segment').getByRole('link', { name: 'staff' }).click();
  await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
  await page.goBack();
  await page.getByRole('list', { name: 'Changes' }).getByRole('link', { name: 'f-25', exact: true }).click();
  await page.getByRole('heading', { name: 'F 25', level: 1 }).waitFor();
  await close();
});

test.serial('on a 390×844 screen, light and dark, the History tab and the Activity page scroll only downwards', async (t) => {
  const ns = 'hist-narrow';
  await seedFlag(t, ns, JSON.stringify({ palette: ['midnight-blue', 'cornflower-blue', 'powder-blue'], description: 'an attachment long enough to need wrapping on a phone' }));
  const variants = (await ui.api.get(`/api/v1/namespaces/${ns}/flags/flag-x`)).body.variants as Array<{ id: string; key: string }>;
  const blue = variants.find((v) => v.key === 'blue');
  t.is((await ui.api.put(`/api/v1/namespaces/${ns}/flags/flag-x/variants/${blue?.id}`, { key: 'blue', name: 'Blue', attachment: '{"palette":["navy"]}' })).status, 200);

  for (const colorScheme of ['light', 'dark'] as const) {
    const { page, close } = await open(t, `/namespaces/${ns}/flags/flag-x/history`, { viewport: { width: 390, height: 844 }, colorScheme });
    await change(page, 'Updated variant blue').waitFor();
    await expect.poll(() => noSideways(page), `${colorScheme}: no sideways scrolling on the History tab`).toBe(true);
    await screenshot(page, `flag-history-narrow-${colorScheme}`, { fullPage: true });

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
    await change(page, 'Created the namespace').waitFor();
    await expect.poll(() => noSideways(page), `${colorScheme}: no sideways scrolling on the Activity page`).toBe(true);
    await screenshot(page, `activity-narrow-${colorScheme}`, { fullPage: true });
    await close();
  }
});
