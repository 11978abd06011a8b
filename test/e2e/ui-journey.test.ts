/**
 * A day's work in the UI, from an empty service, done only by clicking and typing in a real
 * Chromium: a namespace, a variant flag with two variants (one with an attachment), a segment with
 * two constraints, a rule splitting that segment 50/50, an evaluation in the console that agrees
 * with `/evaluate/v1`, a boolean flag with a threshold rollout, and an API token created and
 * deleted in the settings. The API is asked after each step whether it holds what the UI showed.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { openPage, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

// The token method is on, so the settings can create tokens; nothing requires one.
const ui = useUiServer(test, { env: { ENSIGN_LOG_LEVEL: 'warn', ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true' } });

/** Clicks a link of the main navigation. */
const go = (page: Page, link: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();

/** Adds a constraint through the segment page's dialog. */
async function addConstraint(page: Page, c: { type: string; property: string; operator: string; value: string }) {
  await page.getByRole('button', { name: 'Add constraint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add constraint' });
  await dialog.getByLabel('Type').selectOption({ label: c.type });
  await dialog.getByLabel('Property').fill(c.property);
  await dialog.getByLabel('Operator').selectOption({ label: c.operator });
  await dialog.getByLabel('Value', { exact: true }).fill(c.value);
  await dialog.getByRole('button', { name: 'Save constraint' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Adds a variant through the flag page's dialog. */
async function addVariant(page: Page, v: { key: string; name: string; attachment?: string }) {
  await page.getByRole('button', { name: 'Add variant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add variant' });
  await dialog.getByLabel('Key', { exact: true }).fill(v.key);
  await dialog.getByLabel('Name', { exact: true }).fill(v.name);
  if (v.attachment !== undefined) await dialog.getByLabel('Attachment').fill(v.attachment);
  await dialog.getByRole('button', { name: 'Create variant' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Creates a flag through the "New flag" dialog and waits for its page. */
async function newFlag(page: Page, name: string, type: 'Variant' | 'Boolean') {
  await page.getByRole('button', { name: 'New flag' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('radio', { name: type }).check();
  const enabled = dialog.getByRole('switch', { name: 'Enabled' });
  if (!(await enabled.isChecked())) await enabled.check();
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

test('namespace → segment → variant flag with a 50/50 rule → console → boolean rollout → API token', async (t) => {
  const { server, browser, api } = ui;
  const { page, close } = await openPage(t, browser, server.baseUrl);
  await page.waitForURL('**/namespaces/default/flags');

  // A namespace, then switch to it.
  await go(page, 'Namespaces');
  await page.getByRole('button', { name: 'New namespace' }).click();
  const nsDialog = page.getByRole('dialog', { name: 'New namespace' });
  await nsDialog.getByLabel('Name', { exact: true }).fill('Shop');
  await expect(nsDialog.getByLabel('Key', { exact: true }), 'the key is suggested from the name').toHaveValue('shop');
  await nsDialog.getByRole('button', { name: 'Create namespace' }).click();
  await nsDialog.waitFor({ state: 'hidden' });
  await page.getByLabel('Namespace', { exact: true }).selectOption('shop');
  await page.waitForURL('**/namespaces/shop/flags');
  t.like((await api.get('/api/v1/namespaces/shop')).body, { key: 'shop', name: 'Shop' });

  // A segment with two constraints.
  await go(page, 'Segments');
  await page.getByRole('button', { name: 'New segment' }).first().click();
  const segDialog = page.getByRole('dialog', { name: 'New segment' });
  await segDialog.getByLabel('Name', { exact: true }).fill('Beta testers');
  await segDialog.getByRole('button', { name: 'Create segment' }).click();
  await page.waitForURL('**/namespaces/shop/segments/beta-testers');
  await addConstraint(page, { type: 'String', property: 'plan', operator: 'equals', value: 'beta' });
  await addConstraint(page, { type: 'Number', property: 'seats', operator: 'greater than or equal', value: '10' });
  const segment = (await api.get('/api/v1/namespaces/shop/segments/beta-testers')).body as { matchType: string; constraints: Array<Record<string, string>> };
  t.is(segment.matchType, 'ALL_MATCH_TYPE');
  t.deepEqual(
    segment.constraints.map((c) => [c['type'], c['property'], c['operator'], c['value']]),
    [
      ['STRING_COMPARISON_TYPE', 'plan', 'eq', 'beta'],
      ['NUMBER_COMPARISON_TYPE', 'seats', 'gte', '10'],
    ],
  );

  // A variant flag with two variants, one with an attachment, and a 50/50 rule on the segment.
  await go(page, 'Flags');
  await newFlag(page, 'Checkout button', 'Variant');
  await page.waitForURL('**/namespaces/shop/flags/checkout-button');
  await addVariant(page, { key: 'blue', name: 'Blue', attachment: '{"hex": "#0000ff"}' });
  await addVariant(page, { key: 'green', name: 'Green' });
  await page.getByRole('button', { name: 'Add rule' }).click();
  const ruleDialog = page.getByRole('dialog', { name: 'Add rule' });
  await ruleDialog.getByRole('checkbox', { name: 'beta-testers' }).check();
  await ruleDialog.getByLabel('blue percentage').fill('50');
  await ruleDialog.getByLabel('green percentage').fill('50');
  await ruleDialog.getByRole('button', { name: 'Create rule' }).click();
  await ruleDialog.waitFor({ state: 'hidden' });
  const flag = (await api.get('/api/v1/namespaces/shop/flags/checkout-button')).body as { enabled: boolean; variants: Array<{ id: string; key: string; attachment: string }> };
  t.true(flag.enabled);
  t.deepEqual(flag.variants.map((v) => [v.key, v.attachment]), [['blue', '{"hex":"#0000ff"}'], ['green', '']]);
  const rules = (await api.get('/api/v1/namespaces/shop/flags/checkout-button/rules')).body.rules as Array<{ segmentKey: string; distributions: Array<{ variantId: string; rollout: number }> }>;
  t.is(rules.length, 1);
  t.is(rules[0]?.segmentKey, 'beta-testers');
  const keyOf = (id: string) => flag.variants.find((v) => v.id === id)?.key;
  t.deepEqual(rules[0]?.distributions.map((d) => [keyOf(d.variantId), d.rollout]), [['blue', 50], ['green', 50]]);
  await screenshot(page, 'journey-flag');

  // The console answers what /evaluate/v1 answers for the same entity and context.
  await page.getByRole('link', { name: 'Evaluate in console' }).click();
  await page.waitForURL('**/namespaces/shop/console?flag=checkout-button');
  await page.getByLabel('Entity ID').fill('user-42');
  await page.getByLabel('Context key 1').fill('plan');
  await page.getByLabel('Context value 1').fill('beta');
  await page.getByRole('button', { name: 'Add context' }).click();
  await page.getByLabel('Context key 2').fill('seats');
  await page.getByLabel('Context value 2').fill('12');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.getByText('Matched a rule').waitFor();
  const expected = (await api.post('/evaluate/v1/namespaces/shop/variant', { flagKey: 'checkout-button', entityId: 'user-42', context: { plan: 'beta', seats: '12' } })).body;
  t.like(expected, { match: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['beta-testers'] });
  await expect(result.locator('.result-variant').first(), 'the console shows the variant the API answers').toHaveText(expected.variantKey);
  await expect(result.getByRole('link', { name: 'beta-testers' })).toBeVisible();
  await screenshot(page, 'journey-console');

  // A boolean flag with a 30 % threshold rollout.
  await go(page, 'Flags');
  await newFlag(page, 'New search', 'Boolean');
  await page.waitForURL('**/namespaces/shop/flags/new-search');
  await page.getByRole('button', { name: 'Add rollout' }).click();
  const rolloutDialog = page.getByRole('dialog', { name: 'Add rollout' });
  await rolloutDialog.getByRole('radio', { name: 'Threshold' }).check();
  await rolloutDialog.getByLabel('Percentage', { exact: true }).fill('30');
  await rolloutDialog.getByLabel('Value').selectOption('true');
  await rolloutDialog.getByRole('button', { name: 'Create rollout' }).click();
  await rolloutDialog.waitFor({ state: 'hidden' });
  const rollouts = (await api.get('/api/v1/namespaces/shop/flags/new-search/rollouts')).body.rules as Array<Record<string, unknown>>;
  t.is(rollouts.length, 1);
  t.like(rollouts[0], { type: 'THRESHOLD_ROLLOUT_TYPE', threshold: { percentage: 30, value: true } });

  // An API token, shown once, then deleted after confirming.
  await go(page, 'API tokens');
  await page.getByRole('button', { name: 'Create token' }).click();
  const tokenDialog = page.getByRole('dialog', { name: 'Create token' });
  await tokenDialog.getByLabel('Name', { exact: true }).fill('deploy');
  await tokenDialog.getByLabel('Description').fill('CI pipeline');
  await tokenDialog.getByRole('button', { name: 'Create token' }).click();
  const created = page.getByRole('dialog', { name: 'Token created' });
  const clientToken = await created.getByLabel('New token').inputValue();
  t.regex(clientToken, /.{16,}/);
  t.is((await api.get('/auth/v1/self', { Authorization: `Bearer ${clientToken}` })).status, 200, 'the shown token works');
  await created.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Delete token deploy' }).click();
  await page.getByRole('dialog', { name: 'Delete token' }).getByRole('button', { name: 'Delete token' }).click();
  await page.getByText('Token "deploy" deleted').waitFor();
  t.is((await api.get('/auth/v1/self', { Authorization: `Bearer ${clientToken}` })).status, 401, 'the deleted token no longer works');

  await go(page, 'Flags');
  await page.getByRole('link', { name: 'checkout-button' }).waitFor();
  await screenshot(page, 'journey-flags');
  await close();
});
