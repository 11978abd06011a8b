/**
 * Rules whose distributions total less than 100%, as in Flipt, in a real Chromium against a real
 * `ensign server`: the rule dialog accepts them and shows the share that gets no variant, refuses
 * only totals above 100%; deleting a variant names the rules that lose a share; the Console says an
 * entity fell in a rule's unassigned share instead of "No rule matched".
 */
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);
const NS = 'ui-distributions';

/** The API's answer, failing the test unless it is a 200. */
async function ok<T = any>(t: ExecutionContext, pending: Promise<{ status: number; body: T; text: string }>): Promise<T> {
  const response = await pending;
  t.is(response.status, 200, response.text);
  return response.body;
}

const rulesOf = async () => (await ui.api.get(`/api/v1/namespaces/${NS}/flags/colour/rules`)).body.rules as Array<{ id: string; distributions: Array<{ variantId: string; rollout: number }> }>;
const ruleCard = (page: Page, n: number) => page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: `Rule ${n}`, exact: true });

/** An entity that matches the rule's segment but whose bucket lies past its distributions. */
async function entityInGap(t: ExecutionContext): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const entityId = `user-${i}`;
    const answer = await ok<{ match: boolean; segmentKeys: string[]; variantKey: string }>(t, ui.api.post('/evaluate/v1/variant', { namespaceKey: NS, flagKey: 'colour', entityId, context: {} }));
    if (!answer.match && answer.segmentKeys.length > 0) return entityId;
  }
  throw new Error('no entity among 200 fell in the unassigned share');
}

test.serial.before(async (t) => {
  await ok(t, ui.api.post('/api/v1/namespaces', { key: NS, name: NS }));
  await ok(t, ui.api.post(`/api/v1/namespaces/${NS}/segments`, { key: 'beta-testers', name: 'Beta testers', matchType: 'ALL_MATCH_TYPE' }));
  await ok(t, ui.api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'colour', name: 'Colour', type: 'VARIANT_FLAG_TYPE', enabled: true }));
  for (const key of ['green', 'blue']) await ok(t, ui.api.post(`/api/v1/namespaces/${NS}/flags/colour/variants`, { key, name: key }));
});

test.serial('a rule at 80% shows the 20% that gets no variant; only totals above 100% are refused', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/${NS}/flags/colour`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add rule' });
  await dialog.getByRole('checkbox', { name: 'beta-testers' }).check();
  await dialog.getByLabel('green percentage').fill('80');
  await dialog.getByLabel('blue percentage').fill('0');
  await dialog.getByText('Total: 80%').waitFor();
  await dialog.getByText('20% get no variant').waitFor();
  await expect(dialog.getByRole('button', { name: 'Create rule' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Create rule' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await ruleCard(page, 1).getByText('20% get no variant').waitFor();
  t.deepEqual((await rulesOf())[0]?.distributions.map((d) => d.rollout), [80]);

  // Editing: above 100% is refused, naming the field; 80 + 20 saves.
  await ruleCard(page, 1).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit rule' });
  await edit.getByLabel('blue percentage').fill('30');
  await edit.getByText('Distribution: the percentages add up to 110%; lower them to 100% or less.').waitFor();
  await expect(edit.getByLabel('blue percentage')).toHaveAttribute('aria-invalid', 'true');
  await expect(edit.getByRole('button', { name: 'Save rule' })).toBeDisabled();
  await screenshot(page, 'rule-dialog-over-100');
  await edit.getByLabel('blue percentage').fill('20');
  await edit.getByText('Total: 100%').waitFor();
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await edit.waitFor({ state: 'hidden' });
  await ruleCard(page, 1).getByText('blue').waitFor();
  t.deepEqual((await rulesOf())[0]?.distributions.map((d) => d.rollout), [80, 20]);
  await close();
});

test.serial('deleting a variant names the rule that loses its share; the rule then saves at 80%', async (t) => {
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/${NS}/flags/colour`);
  await ruleCard(page, 1).getByText('blue').waitFor();
  await page.getByRole('button', { name: 'Delete variant blue' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete variant' });
  await confirm.getByText('Rule 1 (segment beta-testers) loses its 20% to blue; 20% of that segment will then get no variant.').waitFor();
  await screenshot(page, 'variant-delete-rules');
  await confirm.getByRole('button', { name: 'Delete variant' }).click();
  await page.getByText('Variant blue deleted').waitFor();
  await ruleCard(page, 1).getByText('20% get no variant').waitFor();
  t.deepEqual((await rulesOf())[0]?.distributions.map((d) => d.rollout), [80]);

  await ruleCard(page, 1).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit rule' });
  await edit.getByText('20% get no variant').waitFor();
  await expect(edit.getByRole('button', { name: 'Save rule' }), 'a rule below 100% is not refused').toBeEnabled();
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await edit.waitFor({ state: 'hidden' });
  await close();
});

test.serial('the Console says an entity fell in the rule’s unassigned share, not that no rule matched', async (t) => {
  const entityId = await entityInGap(t);
  const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}/namespaces/${NS}/console?flag=colour`);
  await page.getByRole('radio', { name: 'Variant' }).and(page.locator(':checked')).waitFor();
  await page.getByLabel('Entity ID').fill(entityId);
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.getByText('Matched rule 1 (segment beta-testers) but fell in its unassigned 20%: no variant').waitFor();
  await expect(result.getByText('No rule matched')).toHaveCount(0);
  await expect(result.getByRole('link', { name: 'beta-testers' }), 'the segment it matched is still listed').toHaveCount(1);
  await screenshot(page, 'console-unassigned-share');
  await close();
});
