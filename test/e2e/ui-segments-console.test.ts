/**
 * The segment screens, the evaluation console and namespace management in a real Chromium against
 * a real `ensign server`: what a user creates through the UI is what the API stores, refusals show
 * the service's message where it belongs, and the console answers what `/evaluate/v1` answers.
 */
import { jsonClient, startEnsign } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';
import { signInWithToken } from '../helpers/ui-session.js';

const ui = useUiServer(test);

test.before(async () => {
  for (const key of ['shop', 'dates', 'many']) {
    const created = await ui.api.post('/api/v1/namespaces', { key, name: key, description: '' });
    if (created.status !== 200) throw new Error(`namespace ${key}: ${created.text}`);
  }
});

/** The API's answer, failing the test unless it is a 200. */
async function ok<T = any>(t: ExecutionContext, pending: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const response = await pending;
  t.is(response.status, 200, response.text);
  return response.body;
}

/** The constraints of a segment as the service stores them. */
async function storedConstraints(t: ExecutionContext, ns: string, segmentKey: string): Promise<Array<Record<string, string>>> {
  return (await ok<{ constraints: Array<Record<string, string>> }>(t, ui.api.get(`/api/v1/namespaces/${ns}/segments/${segmentKey}`))).constraints;
}

/** Closes the notices of earlier actions so a screenshot shows the page itself. */
async function dismissToasts(page: Page) {
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  for (let tries = 0; tries < 20 && (await dismiss.count()) > 0; tries++) {
    // A notice may close by itself between counting and clicking; then there is nothing to click.
    await dismiss.first().click({ timeout: 2000 }).catch(() => undefined);
  }
}

/** Opens "Add constraint" and fills the dialog; list values go into "Value 1", "Value 2" …. */
async function fillConstraint(page: Page, c: { type: string; property?: string; operator: string; value?: string; values?: string[]; timeZone?: string }) {
  await page.getByRole('button', { name: 'Add constraint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add constraint' });
  await dialog.getByLabel('Type').selectOption({ label: c.type });
  if (c.property !== undefined) await dialog.getByLabel('Property').fill(c.property);
  await dialog.getByLabel('Operator').selectOption({ label: c.operator });
  if (c.timeZone !== undefined) await dialog.getByLabel('Time zone').selectOption(c.timeZone);
  if (c.value !== undefined) await dialog.getByLabel('Value', { exact: true }).fill(c.value);
  for (const [i, value] of (c.values ?? []).entries()) {
    if (i > 0) await dialog.getByLabel(`Value ${i}`, { exact: true }).press('Enter');
    await dialog.getByLabel(`Value ${i + 1}`, { exact: true }).fill(value);
  }
  return dialog;
}

test('namespaces: created through the dialog, listed in the switcher; the default one is protected', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/settings/namespaces`);
  // By keyboard: the dialog opens on its first field, Tab moves on, Enter submits.
  await page.getByRole('button', { name: 'New namespace' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New namespace' });
  await dialog.waitFor();
  await expect.poll(() => page.evaluate<string>('document.activeElement?.labels?.[0]?.textContent ?? ""'), 'focus starts at Name').toBe('Name');
  await page.keyboard.type('Team Payments');
  await expect(dialog.getByLabel('Key'), 'the key follows the name').toHaveValue('team-payments');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Checkout and billing');
  await dialog.getByLabel('Name').press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('cell', { name: 'team-payments', exact: true }).waitFor();
  const switcher = page.getByLabel('Namespace', { exact: true });
  await switcher.locator('option[value="team-payments"]').waitFor({ state: 'attached' });
  await expect(switcher.locator('option[value="team-payments"]')).toHaveText('Team Payments (team-payments)');
  t.like(await ok(t, ui.api.get('/api/v1/namespaces/team-payments')), { key: 'team-payments', name: 'Team Payments', description: 'Checkout and billing', protected: false });

  // The same key again: the service's message next to Key, and the typed name kept.
  await page.getByRole('button', { name: 'New namespace' }).click();
  await dialog.getByLabel('Name').fill('Team Payments');
  await dialog.getByRole('button', { name: 'Create namespace' }).click();
  await dialog.getByText('A namespace with the key “team-payments” already exists', { exact: false }).first().waitFor();
  await expect(dialog.getByLabel('Key')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Name')).toHaveValue('Team Payments');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Edit namespace team-payments' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit namespace team-payments' });
  await edit.getByLabel('Name').fill('Payments');
  await edit.getByRole('button', { name: 'Save namespace' }).click();
  await page.getByRole('cell', { name: 'Payments', exact: true }).waitFor();
  await expect(switcher.locator('option[value="team-payments"]'), 'the switcher reads the same list').toHaveText('Payments (team-payments)');
  await dismissToasts(page);
  await screenshot(page, 'namespaces');

  // The default namespace is protected: it offers no Delete, only its badge says why.
  const defaultRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'default', exact: true }) });
  await defaultRow.getByText('Protected').waitFor();
  await expect(page.getByRole('button', { name: 'Delete namespace default' }), 'no Delete on a protected namespace').toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit namespace default' }), 'it can still be edited').toHaveCount(1);

  // Cancelling deletes nothing; confirming removes the namespace and its switcher entry.
  await page.getByRole('button', { name: 'Delete namespace team-payments' }).click();
  await page.getByRole('dialog', { name: 'Delete namespace' }).waitFor();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Delete namespace' }).waitFor({ state: 'hidden' });
  t.is((await ui.api.get('/api/v1/namespaces/team-payments')).status, 200, 'cancel keeps it');
  await page.getByRole('button', { name: 'Delete namespace team-payments' }).click();
  await page.getByRole('dialog', { name: 'Delete namespace' }).getByRole('button', { name: 'Delete namespace' }).click();
  await page.getByRole('cell', { name: 'team-payments', exact: true }).waitFor({ state: 'detached' });
  await switcher.locator('option[value="team-payments"]').waitFor({ state: 'detached' });
  t.is((await ui.api.get('/api/v1/namespaces/team-payments')).status, 404);

  await page.getByRole('link', { name: 'Flags of shop' }).click();
  await page.waitForURL('**/namespaces/shop/flags');
  await close();
});

test.serial('segments: a segment with a string and a number constraint, created through the UI', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/shop/segments`);
  await page.getByText('No segments yet').waitFor();
  await page.getByRole('button', { name: 'New segment' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New segment' });
  await dialog.getByLabel('Name').fill('Pro customers');
  await expect(dialog.getByLabel('Key')).toHaveValue('pro-customers');
  await dialog.getByLabel('Description').fill('Paying customers of age');
  await expect(dialog.getByLabel('Match type')).toHaveValue('ALL_MATCH_TYPE');
  await dialog.getByRole('button', { name: 'Create segment' }).click();
  await page.waitForURL('**/namespaces/shop/segments/pro-customers');
  await page.getByRole('heading', { name: 'Pro customers', level: 1 }).waitFor();

  const first = await fillConstraint(page, { type: 'String', property: 'plan', operator: 'equals', value: 'pro' });
  await first.getByLabel('Description').fill('Paid plan');
  await first.getByRole('button', { name: 'Save constraint' }).click();
  await first.waitFor({ state: 'hidden' });
  const second = await fillConstraint(page, { type: 'Number', property: 'age', operator: 'greater than or equal', value: '21' });
  await expect(second.getByLabel('Value', { exact: true })).toHaveAttribute('type', 'number');
  await second.getByRole('button', { name: 'Save constraint' }).click();
  await second.waitFor({ state: 'hidden' });

  const table = page.getByRole('table');
  await table.getByRole('row').filter({ hasText: 'greater than or equal' }).waitFor();
  t.deepEqual(
    (await storedConstraints(t, 'shop', 'pro-customers')).map(({ type, property, operator, value, description }) => ({ type, property, operator, value, description })),
    [
      { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro', description: 'Paid plan' },
      { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '21', description: '' },
    ],
  );
  await expect(table.getByRole('row'), 'a header row and two constraints').toHaveCount(3);
  await dismissToasts(page);
  await screenshot(page, 'segment');

  // The list shows the new segment with its match type and constraint count.
  await page.getByRole('link', { name: 'Segments', exact: true }).first().click();
  const row = page.getByRole('row').filter({ hasText: 'pro-customers' });
  await row.waitFor();
  await expect.poll(async () => (await row.innerText()).replace(/\s+/g, ' ')).toMatch(/Pro customers pro-customers .*All 2 just now/);
  await page.getByLabel('Search segments').fill('nothing-like-this');
  await page.getByText('No segments match').waitFor();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await row.waitFor();
  await close();
});

test('segments: date-times and lists round-trip as the service stores them; a refused value keeps what was typed', async (t) => {
  await ok(t, ui.api.post('/api/v1/namespaces/dates/segments', { key: 'launch', name: 'Launch window', description: '', matchType: 'ANY_MATCH_TYPE' }));
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/dates/segments/launch`, { timezoneId: 'Europe/Berlin' });
  await page.getByRole('heading', { name: 'Launch window', level: 1 }).waitFor();

  // A date-time picked in the browser's zone is stored as RFC 3339 UTC …
  const dated = await fillConstraint(page, { type: 'Date-time', property: 'signup', operator: 'at or after', value: '2026-11-23T10:00' });
  await expect(dated.getByLabel('Value', { exact: true })).toHaveAttribute('type', 'datetime-local');
  await dated.getByText('stored as 2026-11-23T09:00:00Z').waitFor();
  await dated.getByRole('button', { name: 'Save constraint' }).click();
  await dated.waitFor({ state: 'hidden' });
  // … or in UTC when chosen.
  const utc = await fillConstraint(page, { type: 'Date-time', property: 'renewal', operator: 'before', timeZone: 'UTC', value: '2027-01-31T23:30' });
  await utc.getByRole('button', { name: 'Save constraint' }).click();
  await utc.waitFor({ state: 'hidden' });

  // Lists: strings, and numbers where the service refuses a word.
  const countries = await fillConstraint(page, { type: 'String', property: 'country', operator: 'is one of', values: ['de', 'fr'] });
  await countries.getByRole('button', { name: 'Save constraint' }).click();
  await countries.waitFor({ state: 'hidden' });
  const ages = await fillConstraint(page, { type: 'Number', property: 'age', operator: 'is one of', values: ['18', 'abc'] });
  await ages.getByRole('button', { name: 'Save constraint' }).click();
  const values = ages.getByRole('group', { name: 'Values' });
  await values.getByText('invalid value provided for property "age" of type number').waitFor();
  await screenshot(page, 'constraint-dialog');
  await expect(ages.getByLabel('Value 1', { exact: true }), 'what was typed is kept').toHaveValue('18');
  await expect(ages.getByLabel('Value 2', { exact: true })).toHaveValue('abc');
  await expect(ages.getByLabel('Property')).toHaveValue('age');
  await expect(ages.getByLabel('Operator')).toHaveValue('isoneof');
  await ages.getByLabel('Value 2', { exact: true }).fill('21');
  await ages.getByRole('button', { name: 'Save constraint' }).click();
  await ages.waitFor({ state: 'hidden' });

  // Entity ID constraints have their property fixed; Boolean ones need no value.
  await page.getByRole('button', { name: 'Add constraint' }).click();
  const entity = page.getByRole('dialog', { name: 'Add constraint' });
  await entity.getByLabel('Type').selectOption({ label: 'Entity ID' });
  await expect(entity.getByLabel('Property')).toHaveValue('entityId');
  await expect(entity.getByLabel('Property')).toHaveAttribute('readonly', '');
  await entity.getByLabel('Type').selectOption({ label: 'Boolean' });
  await expect(entity.getByLabel('Operator').locator('option')).toHaveText(['is true', 'is false', 'is present', 'is not present']);
  await entity.getByText('This operator compares no value.').waitFor();
  await expect(entity.getByLabel('Value', { exact: true })).toHaveCount(0);
  await entity.getByLabel('Property').fill('beta');
  await entity.getByRole('button', { name: 'Save constraint' }).click();
  await entity.waitFor({ state: 'hidden' });

  const stored = await storedConstraints(t, 'dates', 'launch');
  t.deepEqual(
    stored.map(({ type, property, operator, value }) => [type, property, operator, value]),
    [
      ['DATETIME_COMPARISON_TYPE', 'signup', 'gte', '2026-11-23T09:00:00Z'],
      ['DATETIME_COMPARISON_TYPE', 'renewal', 'lt', '2027-01-31T23:30:00Z'],
      ['STRING_COMPARISON_TYPE', 'country', 'isoneof', '["de","fr"]'],
      ['NUMBER_COMPARISON_TYPE', 'age', 'isoneof', '[18,21]'],
      ['BOOLEAN_COMPARISON_TYPE', 'beta', 'true', ''],
    ],
  );

  // Editing shows the stored values back: the date-time in the browser's zone, the list as items.
  await page.getByRole('button', { name: 'Edit constraint signup' }).click();
  const editDate = page.getByRole('dialog', { name: 'Edit constraint' });
  await expect(editDate.getByLabel('Value', { exact: true })).toHaveValue('2026-11-23T10:00');
  await expect(editDate.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await editDate.getByLabel('Time zone').selectOption('UTC');
  await expect(editDate.getByLabel('Value', { exact: true }), 'the same instant in UTC').toHaveValue('2026-11-23T09:00');
  await editDate.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Edit constraint country' }).click();
  const editList = page.getByRole('dialog', { name: 'Edit constraint' });
  await expect(editList.getByLabel('Value 2', { exact: true })).toHaveValue('fr');
  await editList.getByRole('button', { name: 'Remove value 1' }).click();
  await editList.getByRole('button', { name: 'Save constraint' }).click();
  await editList.waitFor({ state: 'hidden' });
  t.is((await storedConstraints(t, 'dates', 'launch'))[2]?.['value'], '["fr"]');

  // Deleting asks first.
  await page.getByRole('button', { name: 'Delete constraint renewal' }).click();
  await page.getByRole('dialog', { name: 'Delete constraint' }).getByRole('button', { name: 'Delete constraint' }).click();
  await page.getByRole('button', { name: 'Delete constraint renewal' }).waitFor({ state: 'detached' });
  t.is((await storedConstraints(t, 'dates', 'launch')).length, 4);

  // Details: a refused save keeps the edits and names the field; a good one is saved.
  await page.getByLabel('Name', { exact: true }).fill('');
  await page.getByLabel('Description', { exact: true }).fill('Signed up after launch');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Enter a name.').first().waitFor();
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Signed up after launch');
  await page.getByLabel('Name', { exact: true }).fill('Launch cohort');
  await page.getByLabel('Match type').selectOption('ALL_MATCH_TYPE');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('heading', { name: 'Launch cohort', level: 1 }).waitFor();
  t.like(await ok(t, ui.api.get('/api/v1/namespaces/dates/segments/launch')), { name: 'Launch cohort', description: 'Signed up after launch', matchType: 'ALL_MATCH_TYPE' });
  await close();
});

test('segments: a narrow dark screen shows the segment and deleting it asks first', async (t) => {
  await ok(t, ui.api.post('/api/v1/namespaces/dates/segments', { key: 'narrow', name: 'Narrow screens', description: 'Seen at 390px', matchType: 'ALL_MATCH_TYPE' }));
  await ok(t, ui.api.post('/api/v1/namespaces/dates/segments/narrow/constraints', { type: 'STRING_COMPARISON_TYPE', property: 'device', operator: 'isoneof', value: '["phone","tablet"]', description: 'Small devices' }));
  await ok(t, ui.api.post('/api/v1/namespaces/dates/segments/narrow/constraints', { type: 'NUMBER_COMPARISON_TYPE', property: 'width', operator: 'lt', value: '768', description: '' }));
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/dates/segments/narrow`, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  await page.getByRole('heading', { name: 'Narrow screens', level: 1 }).waitFor();
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  t.is(overflow, 0, 'the page itself does not scroll sideways');
  await screenshot(page, 'segment-dark-narrow', { fullPage: true });

  await page.getByRole('button', { name: 'Delete segment' }).click();
  await page.getByRole('dialog', { name: 'Delete segment' }).getByRole('button', { name: 'Delete segment' }).click();
  await page.waitForURL('**/namespaces/dates/segments');
  t.is((await ui.api.get('/api/v1/namespaces/dates/segments/narrow')).status, 404);
  await close();
});

test.serial('console: evaluations answer what /evaluate/v1 answers, with the curl for the same request', async (t) => {
  const flag = await ok(t, ui.api.post('/api/v1/namespaces/shop/flags', { key: 'checkout', name: 'Checkout', description: '', enabled: true, type: 'VARIANT_FLAG_TYPE' }));
  t.truthy(flag);
  const blue = await ok(t, ui.api.post('/api/v1/namespaces/shop/flags/checkout/variants', { key: 'blue', name: 'Blue', description: '', attachment: '{"color":"blue","size":2}' }));
  const green = await ok(t, ui.api.post('/api/v1/namespaces/shop/flags/checkout/variants', { key: 'green', name: 'Green', description: '', attachment: '{"color":"green","size":3}' }));
  const rule = await ok(t, ui.api.post('/api/v1/namespaces/shop/flags/checkout/rules', { segmentKey: 'pro-customers', rank: 1 }));
  await ok(t, ui.api.post(`/api/v1/namespaces/shop/flags/checkout/rules/${rule.id}/distributions`, { variantId: blue.id, rollout: 50 }));
  await ok(t, ui.api.post(`/api/v1/namespaces/shop/flags/checkout/rules/${rule.id}/distributions`, { variantId: green.id, rollout: 50 }));
  await ok(t, ui.api.put('/api/v1/namespaces/shop/flags/checkout', { name: 'Checkout', description: '', enabled: true, defaultVariantId: blue.id }));
  await ok(t, ui.api.post('/api/v1/namespaces/shop/flags', { key: 'dark-mode', name: 'Dark mode', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }));
  await ok(t, ui.api.post('/api/v1/namespaces/shop/flags/dark-mode/rollouts', { rank: 1, description: '', segment: { segmentKey: 'pro-customers', value: true } }));

  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/shop/console?flag=checkout`);
  await expect(page.getByLabel('Flag', { exact: true }), '?flag= preselects the flag').toHaveValue('checkout');
  await page.getByRole('radio', { name: 'Variant' }).and(page.locator(':checked')).waitFor();
  await page.getByLabel('Entity ID').fill('user-42');
  await page.getByLabel('Context key 1').fill('plan');
  await page.getByLabel('Context value 1').fill('pro');
  await page.getByRole('button', { name: 'Add context' }).click();
  await page.getByLabel('Context key 2').fill('age');
  await page.getByLabel('Context value 2').fill('30');
  await page.getByRole('button', { name: 'Evaluate' }).click();

  const result = page.getByRole('region', { name: 'Result' });
  await result.getByText('Matched a rule').waitFor();
  const context = { plan: 'pro', age: '30' };
  const expected = await ok(t, ui.api.post('/evaluate/v1/variant', { namespaceKey: 'shop', flagKey: 'checkout', entityId: 'user-42', context }));
  t.true(expected.match);
  await expect(result.locator('.result-variant'), 'the variant the API answers for the same entity').toHaveText(expected.variantKey, { useInnerText: true });
  await expect(result.locator('.reason-code')).toHaveText('MATCH_EVALUATION_REASON', { useInnerText: true });
  await expect(result.getByRole('link', { name: 'pro-customers' })).toHaveAttribute('href', '/namespaces/shop/segments/pro-customers');
  const attachment = expected.variantKey === 'blue' ? { color: 'blue', size: 2 } : { color: 'green', size: 3 };
  await expect.poll(() => result.locator('pre.attachment').innerText(), 'the attachment pretty-printed').toBe(JSON.stringify(attachment, null, 2));
  await result.getByText('round trip').waitFor();
  await dismissToasts(page);
  await screenshot(page, 'console');
  await result.getByText('Raw response').click();
  const raw = async () => JSON.parse(await result.locator('details pre').innerText());
  await expect.poll(raw).toMatchObject({ match: true, variantKey: expected.variantKey, segmentKeys: ['pro-customers'] });

  // The curl command names the same route and body, and running it gives the same answer.
  const curlUrl = async () => (await page.getByLabel('curl command').innerText()).match(/^curl -X POST '([^']+)'/)?.[1];
  const url = `${ui.server.baseUrl}/evaluate/v1/namespaces/shop/variant`;
  await expect.poll(curlUrl).toBe(url);
  const curl = await page.getByLabel('curl command').innerText();
  const quotedBody = curl.match(/-d '((?:[^']|'\\'')*)'\s*$/)?.[1] ?? '';
  const body = JSON.parse(quotedBody.replaceAll(`'\\''`, `'`));
  t.deepEqual(body, { namespaceKey: 'shop', flagKey: 'checkout', entityId: 'user-42', context });
  t.notRegex(curl, /Authorization/, 'an open service needs no token');
  const viaCurl = (await (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json()) as { variantKey: string };
  t.is(viaCurl.variantKey, expected.variantKey);

  // A context outside the segment: no match, the default reason.
  await page.getByLabel('Context value 1').fill('free');
  await page.getByLabel('Context value 1').press('Enter');
  await result.getByText('No rule matched: the default variant applies').waitFor();
  await expect(result.locator('.reason-code')).toHaveText('DEFAULT_EVALUATION_REASON', { useInnerText: true });
  await expect(result.locator('.result-headline')).toHaveText('No match default variant blue', { useInnerText: true });

  // A boolean flag goes to the boolean route.
  await page.getByLabel('Flag', { exact: true }).fill('dark-mode');
  await page.getByRole('radio', { name: 'Boolean' }).and(page.locator(':checked')).waitFor();
  await page.getByLabel('Context value 1').fill('pro');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await result.getByText('Matched a rollout').waitFor();
  await expect(result.locator('.result-headline')).toHaveText('Enabled', { useInnerText: true });
  await expect(page.getByLabel('curl command')).toHaveText(/\/evaluate\/v1\/namespaces\/shop\/boolean'/, { useInnerText: true });
  t.like(await ok(t, ui.api.post('/evaluate/v1/boolean', { namespaceKey: 'shop', flagKey: 'dark-mode', entityId: 'user-42', context: { plan: 'pro', age: '30' } })), { enabled: true, reason: 'MATCH_EVALUATION_REASON' });

  // Errors of the service show as a banner, and the form keeps its values.
  await page.getByRole('radio', { name: 'Variant' }).check();
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await result.getByRole('alert').filter({ hasText: 'flag type BOOLEAN_FLAG_TYPE invalid' }).waitFor();
  await page.getByLabel('Flag', { exact: true }).fill('no-such-flag');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await result.getByRole('alert').filter({ hasText: 'flag "shop/no-such-flag" not found' }).waitFor();
  await expect(page.getByLabel('Entity ID'), 'the form keeps its values').toHaveValue('user-42');

  // A random entity id, and the history runs an earlier evaluation again.
  await page.getByRole('button', { name: 'Random' }).click();
  await expect(page.getByLabel('Entity ID')).toHaveValue(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
  const history = page.getByRole('region', { name: 'Recent evaluations' });
  await expect(history.getByRole('listitem'), 'three evaluations answered').toHaveCount(3);
  await history.getByRole('button', { name: 'Run again: checkout for user-42' }).first().click();
  await expect(page.getByLabel('Flag', { exact: true })).toHaveValue('checkout');
  await result.getByText('No match').waitFor();
  await expect(page.getByLabel('Context value 1')).toHaveValue('free');
  await page.waitForURL('**/namespaces/shop/console?flag=checkout');

  // The matched segment links to its page; a segment a rule uses cannot be deleted, and the page says why.
  await history.getByRole('button', { name: 'Run again: checkout for user-42' }).last().click();
  await result.getByText('Matched a rule').waitFor();
  await result.getByRole('link', { name: 'pro-customers' }).click();
  await page.waitForURL('**/namespaces/shop/segments/pro-customers');
  const deleteButton = page.getByRole('button', { name: 'Delete segment' });
  await deleteButton.and(page.locator(':disabled')).waitFor();
  await page.getByRole('note').filter({ hasText: 'It cannot be deleted: Segment “pro-customers” is used by 1 rule' }).waitFor();
  t.is((await ui.api.get('/api/v1/namespaces/shop/segments/pro-customers')).status, 200);
  await close();
});

test('console: signed in with a pasted token, the curl reads the token from $ENSIGN_TOKEN and never shows it', async (t) => {
  const secret = 'console-s3cr3t-token';
  const secured = await startEnsign({
    env: {
      ENSIGN_LOG_LEVEL: 'warn',
      ENSIGN_AUTHENTICATION_REQUIRED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: secret,
    },
  });
  t.teardown(() => secured.stop());
  const auth = { Authorization: `Bearer ${secret}` };
  const admin = jsonClient(secured.baseUrl);
  await ok(t, admin.post('/api/v1/namespaces/default/flags', { key: 'beta', name: 'Beta', description: '', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }, auth));

  // Signed in as the sign-in screen does it: the token traded for a session cookie.
  const { page, close } = await openPage(t, ui.browser, `${secured.baseUrl}/favicon.svg`);
  t.is(await signInWithToken(page, secret), 200);
  await page.goto(`${secured.baseUrl}/namespaces/default/console?flag=beta`);
  await page.getByRole('radio', { name: 'Boolean' }).and(page.locator(':checked')).waitFor();
  await page.getByLabel('Entity ID').fill('u1');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.getByText('No rollout matched').waitFor();

  await expect(page.getByLabel('curl command')).toHaveText(/-H "Authorization: Bearer \$ENSIGN_TOKEN"/, { useInnerText: true });
  const curl = await page.getByLabel('curl command').innerText();
  t.false(curl.includes(secret), 'the real token is never written out');
  t.false((await page.content()).includes(secret), 'nor shown anywhere on the page');
  const url = curl.match(/^curl -X POST '([^']+)'/)?.[1] ?? '';
  const body = curl.match(/-d '((?:[^']|'\\'')*)'\s*$/)?.[1]?.replaceAll(`'\\''`, `'`) ?? '';
  const answer = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...auth }, body });
  t.is(answer.status, 200, 'the command works once ENSIGN_TOKEN is set');
  t.like(await answer.json(), { enabled: true, reason: 'DEFAULT_EVALUATION_REASON', flagKey: 'beta' });
  await close();
});

test('segments: the list pages in the browser and search covers every page', async (t) => {
  for (let i = 1; i <= 30; i++) {
    const key = `cohort-${String(i).padStart(2, '0')}`;
    await ok(t, ui.api.post('/api/v1/namespaces/many/segments', { key, name: `Cohort ${i}`, description: i === 30 ? 'the last one' : '', matchType: 'ANY_MATCH_TYPE' }));
  }
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/many/segments`);
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await pages.getByText('1–25 of 30').waitFor();
  await expect(page.getByRole('link', { name: /^Cohort / })).toHaveCount(25);
  await pages.getByRole('button', { name: 'Next' }).click();
  await pages.getByText('26–30 of 30').waitFor();
  await expect(page.getByRole('link', { name: /^Cohort / })).toHaveCount(5);
  await page.getByRole('button', { name: 'Previous' }).click();
  await page.getByLabel('Search segments').fill('last one');
  await page.getByRole('link', { name: 'Cohort 30', exact: true }).waitFor();
  await expect(page.getByRole('link', { name: /^Cohort / }), 'found on the second page').toHaveCount(1);
  await expect(pages, 'one page of results needs no pager').toBeHidden();
  await page.waitForURL('**/namespaces/many/segments?q=last+one');
  await page.getByRole('link', { name: 'Cohort 30', exact: true }).click();
  await page.getByRole('heading', { name: 'Cohort 30', level: 1 }).waitFor();
  await page.goBack();
  await expect(page.getByLabel('Search segments'), 'the search is kept in the address').toHaveValue('last one');
  await close();
});
