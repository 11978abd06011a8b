/**
 * The flag screens in a real Chromium against a real `ensign server`: the list (search, filters,
 * pages), creating flags, variants with JSON attachments, the default variant, rules with their
 * distributions, rollouts, reordering by buttons and by drag and drop, the enabled switch, and the
 * service's refusals shown next to their field with what was typed kept. Each test works in a
 * namespace of its own and checks what it did through the API. The tests run one after another:
 * a browser apiece at once would starve a small machine.
 */
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);

interface Seeded {
  ns: string;
  variants: Record<string, string>;
}

/** A namespace of the test's own, with what the test is not about created through the API. */
async function seed(t: ExecutionContext, ns: string, what: { segments?: string[]; flag?: { key: string; type?: string; variants?: string[] } } = {}): Promise<Seeded> {
  const ok = (res: { status: number; text: string }, label: string) => t.is(res.status, 200, `${label}: ${res.text}`);
  ok(await ui.api.post('/api/v1/namespaces', { key: ns, name: ns }), 'namespace');
  for (const key of what.segments ?? []) ok(await ui.api.post(`/api/v1/namespaces/${ns}/segments`, { key, name: `${key} users`, matchType: 'ALL_MATCH_TYPE' }), key);
  const variants: Record<string, string> = {};
  if (what.flag !== undefined) {
    const { key, type = 'VARIANT_FLAG_TYPE' } = what.flag;
    ok(await ui.api.post(`/api/v1/namespaces/${ns}/flags`, { key, name: key, type, enabled: true }), key);
    for (const v of what.flag.variants ?? []) {
      const res = await ui.api.post(`/api/v1/namespaces/${ns}/flags/${key}/variants`, { key: v, name: v });
      ok(res, v);
      variants[v] = res.body.id;
    }
  }
  return { ns, variants };
}

/** Some tests make the service refuse a request on purpose; Chromium logs each refusal. */
const REFUSALS = [/Failed to load resource: the server responded with a status of [45]\d\d/];
const open = (t: ExecutionContext, path: string, options?: PageOptions) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, { allowConsoleErrors: REFUSALS, ...options });

/** A screenshot without the toasts of the moment, which would hide part of the page. */
async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  const style = await page.addStyleTag({ content: '.toasts { display: none !important; }' });
  await screenshot(page, name, { fullPage });
  await style.evaluate((el) => el.remove());
}

const rulesOf = async (ns: string, flag: string) => (await ui.api.get(`/api/v1/namespaces/${ns}/flags/${flag}/rules`)).body.rules as Array<{ id: string; segmentKey: string; segmentKeys: string[]; distributions: Array<{ variantId: string; rollout: number }> }>;
const rolloutsOf = async (ns: string, flag: string) => (await ui.api.get(`/api/v1/namespaces/${ns}/flags/${flag}/rollouts`)).body.rules as Array<{ id: string; type: string; threshold?: { percentage: number; value: boolean }; segment?: { segmentKey: string; value: boolean } }>;
const flagOf = async (ns: string, flag: string) => (await ui.api.get(`/api/v1/namespaces/${ns}/flags/${flag}`)).body;

/** Does `action` and waits for the write it makes to `path` to be answered; resolves the status. */
async function saving(page: Page, path: string, action: () => Promise<void>): Promise<number> {
  const response = page.waitForResponse((r) => r.request().method() !== 'GET' && new URL(r.url()).pathname.endsWith(path));
  await action();
  return (await response).status();
}

const ruleSegments = async (ns: string, flag: string) => (await rulesOf(ns, flag)).map((r) => r.segmentKey || r.segmentKeys.join('+'));
const ruleCard = (page: Page, n: number) => page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: `Rule ${n}`, exact: true });

test.serial('a variant flag: created in the dialog, variants with a JSON attachment, the default variant', async (t) => {
  const { ns } = await seed(t, 'ui-variant');
  const { page, close } = await open(t, `/namespaces/${ns}/flags`);
  await page.getByText('No flags yet').waitFor();
  await page.getByRole('button', { name: 'New flag' }).click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Name').fill('Checkout flow');
  await expect(dialog.getByLabel('Key'), 'the key follows the name').toHaveValue('checkout-flow');
  await dialog.getByLabel('Description').fill('The new checkout');
  await expect(dialog.getByLabel('Variant'), 'variant is the default type').toBeChecked();
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await page.waitForURL(`**/namespaces/${ns}/flags/checkout-flow`);
  await page.getByRole('heading', { name: 'Checkout flow' }).waitFor();

  await page.getByRole('button', { name: 'Add variant' }).click();
  let variant = page.getByRole('dialog', { name: 'Add variant' });
  await variant.getByLabel('Key').fill('control');
  await variant.getByLabel('Name').fill('Control');
  await variant.getByRole('button', { name: 'Create variant' }).click();
  await page.getByRole('cell', { name: 'control', exact: true }).waitFor();

  await page.getByRole('button', { name: 'Add variant' }).click();
  variant = page.getByRole('dialog', { name: 'Add variant' });
  await variant.getByLabel('Key').fill('treatment');
  await variant.getByLabel('Attachment').fill('{"color": "blue",\n "size": 2,}');
  await expect(variant.getByLabel('Attachment')).toHaveAccessibleDescription(/Invalid JSON: Expected a property name \(no comma before \}\) but found '\}' at line 2, column 12/);
  await expect(variant.getByRole('button', { name: 'Create variant' }), 'invalid JSON blocks saving').toBeDisabled();
  await variant.getByLabel('Attachment').fill('{"color":"blue","size":2.0}');
  await variant.getByRole('button', { name: 'Format' }).click();
  await expect(variant.getByLabel('Attachment')).toHaveValue('{\n  "color": "blue",\n  "size": 2.0\n}');
  await variant.getByRole('button', { name: 'Create variant' }).click();
  await variant.waitFor({ state: 'hidden' });

  const row = page.getByRole('row').filter({ hasText: 'treatment' });
  await row.getByText('{"color":"blue","size":2.0}').click();
  await expect.poll(() => row.locator('pre').textContent(), 'expanded, pretty-printed').toBe('{\n  "color": "blue",\n  "size": 2.0\n}');

  // The same key twice: the service's message next to Key, the dialog as typed.
  await page.getByRole('button', { name: 'Add variant' }).click();
  variant = page.getByRole('dialog', { name: 'Add variant' });
  await variant.getByLabel('Key').fill('control');
  await variant.getByLabel('Name').fill('Again');
  await variant.getByRole('button', { name: 'Create variant' }).click();
  await variant.getByText('This flag already has a variant with the key “control”', { exact: false }).first().waitFor();
  await expect(variant.getByLabel('Key')).toHaveAccessibleDescription(/already has a variant with the key “control”/);
  await expect(variant.getByLabel('Name')).toHaveValue('Again');
  await variant.getByRole('button', { name: 'Cancel' }).click();

  await saving(page, '/flags/checkout-flow', () => page.getByLabel('Default variant').selectOption({ label: 'treatment' }).then(() => undefined));
  await page.getByText('Default variant set to treatment').waitFor();
  const flag = await flagOf(ns, 'checkout-flow');
  t.is(flag.defaultVariant?.key, 'treatment');
  t.is(flag.description, 'The new checkout');
  t.deepEqual(
    flag.variants.map((v: { key: string; attachment: string }) => [v.key, v.attachment]),
    [
      ['control', ''],
      ['treatment', '{"color":"blue","size":2.0}'],
    ],
  );
  await close();
});

test.serial('a rule on a segment with a 50/50 split; totals over 100 are blocked', async (t) => {
  const { ns, variants } = await seed(t, 'ui-rules', { segments: ['beta', 'staff'], flag: { key: 'colour', variants: ['blue', 'green'] } });
  const { page, close } = await open(t, `/namespaces/${ns}/flags/colour`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add rule' });
  await dialog.getByRole('checkbox', { name: 'beta' }).check();
  await expect(dialog.getByLabel('blue percentage')).toHaveValue('50');
  await expect(dialog.getByLabel('green percentage')).toHaveValue('50');
  await dialog.getByText('Total: 100%').waitFor();

  await dialog.getByLabel('blue percentage').fill('60');
  await dialog.getByText('Total: 110%').waitFor();
  await dialog.getByText('Distribution: the percentages add up to 110%; lower them to 100% or less.').waitFor();
  await shot(page, 'rule-dialog');
  await expect(dialog.getByRole('button', { name: 'Create rule' })).toBeDisabled();
  await dialog.getByLabel('blue percentage').fill('50');
  await dialog.getByRole('button', { name: 'Create rule' }).click();
  await dialog.waitFor({ state: 'hidden' });

  const [rule] = await rulesOf(ns, 'colour');
  t.is(rule?.segmentKey, 'beta');
  t.deepEqual(
    rule?.distributions.map((d) => [d.variantId, d.rollout]),
    [
      [variants['blue'], 50],
      [variants['green'], 50],
    ],
  );

  // A second rule on two segments, all traffic to green.
  await page.getByRole('button', { name: 'Add rule' }).click();
  await dialog.getByRole('checkbox', { name: 'beta' }).check();
  await dialog.getByRole('checkbox', { name: 'staff' }).check();
  await dialog.getByLabel('Segment operator').selectOption('AND_SEGMENT_OPERATOR');
  await dialog.getByLabel('blue percentage').fill('0');
  await dialog.getByLabel('green percentage').fill('100');
  await dialog.getByRole('button', { name: 'Create rule' }).click();
  await ruleCard(page, 2).getByText('AND').waitFor();
  const second = (await rulesOf(ns, 'colour'))[1];
  t.deepEqual(second?.segmentKeys, ['beta', 'staff']);
  t.deepEqual(second?.distributions.map((d) => [d.variantId, d.rollout]), [[variants['green'], 100]]);
  await page.getByLabel('Default variant').selectOption({ label: 'blue' });
  await page.getByText('Default variant set to blue').waitFor();
  await shot(page, 'flag-variant', true);

  // Editing the first rule: 70/30.
  await ruleCard(page, 1).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit rule' });
  await edit.getByLabel('blue percentage').fill('70');
  await edit.getByLabel('green percentage').fill('30');
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await ruleCard(page, 1).getByText('70%').waitFor();
  t.deepEqual((await rulesOf(ns, 'colour'))[0]?.distributions.map((d) => d.rollout), [70, 30]);
  await close();
});

test.serial('a rule whose distribution fails stays open as the editor of that rule, and saving again completes it', async (t) => {
  const { ns, variants } = await seed(t, 'ui-rule-retry', { segments: ['beta'], flag: { key: 'retry', variants: ['a', 'b'] } });
  const { page, close } = await open(t, `/namespaces/${ns}/flags/retry`);
  let refused = 0;
  await page.route('**/distributions', async (route) => {
    if (route.request().method() === 'POST' && refused++ === 1) await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 14, message: 'the database is unavailable' }) });
    else await route.continue();
  });
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByRole('dialog', { name: 'Add rule' }).getByRole('checkbox', { name: 'beta' }).check();
  await page.getByRole('button', { name: 'Create rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit rule' });
  await dialog.getByText('the database is unavailable').waitFor();
  await expect(dialog.getByLabel('b percentage'), 'what was typed is kept').toHaveValue('50');
  await expect(dialog.getByRole('checkbox', { name: 'beta' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const rules = await rulesOf(ns, 'retry');
  t.is(rules.length, 1, 'one rule, not two');
  t.deepEqual(
    rules[0]?.distributions.map((d) => [d.variantId, d.rollout]),
    [
      [variants['a'], 50],
      [variants['b'], 50],
    ],
  );
  await close();
});

test.serial('rules reorder with the move buttons and by drag and drop; a refused order goes back', async (t) => {
  const { ns } = await seed(t, 'ui-order', { segments: ['one', 'two', 'three'], flag: { key: 'ordered', variants: ['v'] } });
  for (const [rank, segmentKey] of ['one', 'two', 'three'].entries()) await ui.api.post(`/api/v1/namespaces/${ns}/flags/ordered/rules`, { segmentKey, rank: rank + 1 });
  const { page, close } = await open(t, `/namespaces/${ns}/flags/ordered`);
  await ruleCard(page, 3).getByText('three').waitFor();

  t.is(await saving(page, '/rules/order', () => ruleCard(page, 1).getByRole('button', { name: 'Move down' }).click()), 200);
  t.deepEqual(await ruleSegments(ns, 'ordered'), ['two', 'one', 'three'], 'moved down with the button');
  await expect(ruleCard(page, 2).getByRole('button', { name: 'Move down' }), 'the pressed button keeps the focus').toBeFocused();
  await saving(page, '/rules/order', () => ruleCard(page, 3).getByRole('button', { name: 'Move up' }).click());
  t.deepEqual(await ruleSegments(ns, 'ordered'), ['two', 'three', 'one'], 'moved up with the button');

  await saving(page, '/rules/order', () => ruleCard(page, 3).getByTitle('Drag to reorder').dragTo(ruleCard(page, 1)));
  t.deepEqual(await ruleSegments(ns, 'ordered'), ['one', 'two', 'three'], 'dragged to the top');
  await ruleCard(page, 1).getByText('one', { exact: true }).waitFor();
  await saving(page, '/rules/order', () => ruleCard(page, 1).getByTitle('Drag to reorder').dragTo(ruleCard(page, 2)));
  t.deepEqual(await ruleSegments(ns, 'ordered'), ['two', 'one', 'three'], 'dragged one place down');

  await page.route('**/rules/order', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ code: 3, message: 'the order was refused' }) }));
  await ruleCard(page, 1).getByRole('button', { name: 'Move down' }).click();
  await page.getByText('The new order of the rules was not saved: the order was refused').waitFor();
  await ruleCard(page, 1).getByText('two', { exact: true }).waitFor();
  t.deepEqual(await ruleSegments(ns, 'ordered'), ['two', 'one', 'three']);

  // Deleting a rule asks first.
  await page.unroute('**/rules/order');
  await ruleCard(page, 3).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete rule' });
  await saving(page, `/rules/${(await rulesOf(ns, 'ordered'))[2]?.id}`, () => confirm.getByRole('button', { name: 'Delete rule' }).click());
  t.deepEqual(await ruleSegments(ns, 'ordered'), ['two', 'one'], 'deleted');
  await close();
});

test.serial('a namespace without segments says so in the rule dialog and links to the segments page', async (t) => {
  const { ns } = await seed(t, 'ui-nosegments', { flag: { key: 'lonely', variants: ['x'] } });
  const { page, close } = await open(t, `/namespaces/${ns}/flags/lonely`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add rule' });
  await dialog.getByText('This namespace has no segments yet').waitFor();
  await expect(dialog.getByRole('button', { name: 'Create rule' })).toBeDisabled();
  await dialog.getByRole('link', { name: 'Create a segment on the Segments page' }).click();
  await page.waitForURL(`**/namespaces/${ns}/segments`);
  await close();
});

test.serial('a boolean flag: threshold and segment rollouts, reordered, and the enabled switch', async (t) => {
  const { ns } = await seed(t, 'ui-boolean', { segments: ['staff'] });
  const { page, close } = await open(t, `/namespaces/${ns}/flags`);
  await page.getByRole('button', { name: 'New flag' }).click();
  const create = page.getByRole('dialog', { name: 'New flag' });
  await create.getByLabel('Name').fill('Dark mode');
  await create.getByLabel('Boolean').check();
  await create.getByRole('button', { name: 'Create flag' }).click();
  await page.waitForURL(`**/flags/dark-mode`);
  await page.getByText('When no rollout matches, the flag evaluates to: disabled').waitFor();

  await page.getByRole('button', { name: 'Add rollout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add rollout' });
  await dialog.getByLabel('Percentage slider').fill('45');
  await expect(dialog.getByLabel('Percentage', { exact: true }), 'the number follows the slider').toHaveValue('45');
  await dialog.getByLabel('Percentage', { exact: true }).fill('30');
  await expect(dialog.getByLabel('Percentage slider'), 'the slider follows the number').toHaveValue('30');
  await dialog.getByLabel('Description').fill('A third of everyone');
  await dialog.getByRole('button', { name: 'Create rollout' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.getByRole('button', { name: 'Add rollout' }).click();
  await dialog.getByLabel('Segment', { exact: true }).check();
  await dialog.getByRole('checkbox', { name: 'staff' }).check();
  await dialog.getByLabel('Value').selectOption('false');
  await dialog.getByRole('button', { name: 'Create rollout' }).click();
  await page.getByRole('heading', { name: 'Rollout 2' }).waitFor();
  t.deepEqual(
    (await rolloutsOf(ns, 'dark-mode')).map((r) => r.threshold ?? r.segment),
    [
      { percentage: 30, value: true },
      { segmentKey: 'staff', segmentKeys: [], segmentOperator: 'OR_SEGMENT_OPERATOR', value: false },
    ],
  );

  await saving(page, '/flags/dark-mode', () => page.getByRole('switch', { name: 'Enabled' }).click());
  await page.getByText('When no rollout matches, the flag evaluates to: enabled').waitFor();
  t.true((await flagOf(ns, 'dark-mode')).enabled, 'enabled through the switch');
  await page.getByText('Flag enabled').waitFor();
  await shot(page, 'flag-boolean', true);

  const list = page.getByRole('list', { name: 'Rollouts' });
  const types = async () => (await rolloutsOf(ns, 'dark-mode')).map((r) => r.type);
  await saving(page, '/rollouts/order', () => list.getByRole('listitem', { name: 'Rollout 1' }).getByRole('button', { name: 'Move down' }).click());
  t.deepEqual(await types(), ['SEGMENT_ROLLOUT_TYPE', 'THRESHOLD_ROLLOUT_TYPE'], 'moved with the button');
  await saving(page, '/rollouts/order', () => list.getByRole('listitem', { name: 'Rollout 1' }).getByTitle('Drag to reorder').dragTo(list.getByRole('listitem', { name: 'Rollout 2' })));
  t.deepEqual(await types(), ['THRESHOLD_ROLLOUT_TYPE', 'SEGMENT_ROLLOUT_TYPE'], 'dragged back');

  // Editing keeps the kind; deleting asks first.
  await list.getByRole('listitem', { name: 'Rollout 1' }).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit rollout' });
  await edit.getByLabel('Percentage', { exact: true }).fill('35');
  await saving(page, `/rollouts/${(await rolloutsOf(ns, 'dark-mode'))[0]?.id}`, () => edit.getByRole('button', { name: 'Save rollout' }).click());
  t.deepEqual((await rolloutsOf(ns, 'dark-mode'))[0]?.threshold, { percentage: 35, value: true });
  await list.getByRole('listitem', { name: 'Rollout 2' }).getByRole('button', { name: 'Delete' }).click();
  await saving(page, `/rollouts/${(await rolloutsOf(ns, 'dark-mode'))[1]?.id}`, () => page.getByRole('dialog', { name: 'Delete rollout' }).getByRole('button', { name: 'Delete rollout' }).click());
  t.deepEqual(await types(), ['THRESHOLD_ROLLOUT_TYPE']);

  // A refused switch goes back, and says why.
  await page.route(`**/api/v1/namespaces/${ns}/flags/dark-mode`, (route) =>
    route.request().method() === 'PUT' ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 14, message: 'try again later' }) }) : route.continue(),
  );
  await page.getByRole('switch', { name: 'Enabled' }).click();
  await page.getByText('The flag was not disabled: try again later').waitFor();
  await expect(page.getByRole('switch', { name: 'Enabled' }), 'rolled back').toBeChecked();
  t.true((await flagOf(ns, 'dark-mode')).enabled);
  await close();
});

test.serial('the service’s refusals of a new flag show next to Key and keep what was typed', async (t) => {
  const { ns } = await seed(t, 'ui-refusals', { flag: { key: 'existing', variants: [] } });
  const { page, close } = await open(t, `/namespaces/${ns}/flags`);
  await page.getByRole('button', { name: 'New flag' }).click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Name').fill('Existing');
  await dialog.getByLabel('Description').fill('Typed with care');
  await dialog.getByLabel('Boolean').check();
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await dialog.getByText('A flag with the key “existing” already exists in this namespace', { exact: false }).first().waitFor();
  await expect(dialog.getByLabel('Key')).toHaveAccessibleDescription(/A flag with the key “existing” already exists in this namespace/);
  await expect(dialog.getByLabel('Name')).toHaveValue('Existing');
  await expect(dialog.getByLabel('Description')).toHaveValue('Typed with care');
  await expect(dialog.getByLabel('Boolean')).toBeChecked();

  await dialog.getByLabel('Key').fill('has spaces!');
  await dialog.getByLabel('Name').fill('Renamed');
  await expect(dialog.getByLabel('Key'), 'a typed key no longer follows the name').toHaveValue('has spaces!');
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  // Checked before sending, in the words the dialog uses for every field.
  await dialog.getByText('Use only letters, digits, hyphens (-), underscores (_) and commas in the key.').first().waitFor();
  await expect(dialog.getByLabel('Key')).toHaveAccessibleDescription(/Use only letters, digits, hyphens/);

  await dialog.getByLabel('Key').fill('');
  await dialog.getByLabel('Name').fill('Fresh start');
  await expect(dialog.getByLabel('Key'), 'an emptied key follows the name again').toHaveValue('fresh-start');
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await page.waitForURL('**/flags/fresh-start');
  t.is((await flagOf(ns, 'fresh-start')).type, 'BOOLEAN_FLAG_TYPE');
  await close();
});

test.serial('the details: a refused name shows next to Name with the rest kept; a saved one renames the page', async (t) => {
  const { ns } = await seed(t, 'ui-details', { flag: { key: 'details', variants: ['a'] } });
  const { page, close } = await open(t, `/namespaces/${ns}/flags/details`);
  await expect(page.getByRole('link', { name: 'Evaluate in console' })).toHaveAttribute('href', `/namespaces/${ns}/console?flag=details`);
  await page.getByLabel('Name', { exact: true }).fill('');
  await page.getByLabel('Description', { exact: true }).fill('Kept when the save fails');
  await page.getByRole('button', { name: 'Save details' }).click();
  await page.getByText('Enter a name.').first().waitFor();
  await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(/Enter a name\./);
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('Kept when the save fails');
  await page.getByLabel('Name', { exact: true }).fill('Better name');
  await saving(page, '/flags/details', () => page.getByRole('button', { name: 'Save details' }).click());
  await page.getByRole('heading', { name: 'Better name', level: 1 }).waitFor();
  const flag = await flagOf(ns, 'details');
  t.like(flag, { name: 'Better name', description: 'Kept when the save fails', enabled: true });
  await close();
});

test.serial('deleting a variant and a flag asks first; cancelling deletes nothing', async (t) => {
  const { ns } = await seed(t, 'ui-delete', { flag: { key: 'doomed', variants: ['keep', 'drop'] } });
  const { page, close } = await open(t, `/namespaces/${ns}/flags/doomed`);
  await page.getByRole('button', { name: 'Delete variant drop' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete variant' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });
  t.is((await flagOf(ns, 'doomed')).variants.length, 2, 'cancelled: nothing deleted');

  await page.getByRole('button', { name: 'Delete variant drop' }).click();
  await confirm.getByRole('button', { name: 'Delete variant' }).click();
  await page.getByText('Variant drop deleted').waitFor();
  t.deepEqual((await flagOf(ns, 'doomed')).variants.map((v: { key: string }) => v.key), ['keep']);

  await page.getByRole('button', { name: 'Delete flag' }).click();
  await page.getByRole('dialog', { name: 'Delete flag' }).getByRole('button', { name: 'Delete flag' }).click();
  await page.waitForURL(`**/namespaces/${ns}/flags`);
  t.is((await ui.api.get(`/api/v1/namespaces/${ns}/flags/doomed`)).status, 404);
  await close();
});

test.serial('the list: search, filters and pages over 120 flags, kept in the address', async (t) => {
  const { ns } = await seed(t, 'ui-list');
  await Promise.all(
    Array.from({ length: 120 }, (_, i) =>
      ui.api.post(`/api/v1/namespaces/${ns}/flags`, {
        key: `flag-${String(i).padStart(3, '0')}`,
        name: `Feature ${i}`,
        description: i % 10 === 0 ? 'part of the payments epic' : '',
        type: i % 3 === 0 ? 'BOOLEAN_FLAG_TYPE' : 'VARIANT_FLAG_TYPE',
        enabled: i % 4 === 0,
      }),
    ),
  );
  const { page, close } = await open(t, `/namespaces/${ns}/flags`);
  const rows = page.getByRole('row').filter({ has: page.getByRole('link') });
  await page.getByText('1–25 of 120').waitFor();
  await expect(rows).toHaveCount(25);
  await expect(rows.first().getByRole('link')).toHaveText('flag-000');
  await shot(page, 'flags-list');

  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('26–50 of 120').waitFor();
  await expect(rows.first().getByRole('link')).toHaveText('flag-025');
  await expect(page).toHaveURL(/page=2/);

  await page.getByLabel('Search flags').fill('payments');
  await page.getByText('12 of 120 flags').waitFor();
  await expect(rows, 'back to the first page, searched in descriptions').toHaveCount(12);
  await page.getByLabel('Type').selectOption('BOOLEAN_FLAG_TYPE');
  await page.getByText('4 of 120 flags').waitFor();
  await page.getByLabel('State').selectOption('enabled');
  await page.getByText('2 of 120 flags').waitFor();
  await expect(rows.getByRole('link')).toHaveText(['flag-000', 'flag-060']);

  await page.reload();
  await page.getByText('2 of 120 flags').waitFor();
  await expect(page.getByLabel('Search flags'), 'the address keeps the search').toHaveValue('payments');
  await rows.getByRole('link', { name: 'flag-060' }).click();
  await page.waitForURL('**/flags/flag-060');
  await page.goBack();
  await page.getByText('2 of 120 flags').waitFor();

  await page.getByLabel('Search flags').fill('no such flag');
  await page.getByRole('button', { name: 'Clear search and filters' }).click();
  await page.getByText('1–25 of 120').waitFor();
  await close();
});

test.serial('on a narrow screen and in the dark theme the flag pages stay usable', async (t) => {
  const { ns } = await seed(t, 'ui-narrow', { segments: ['beta'], flag: { key: 'narrow', variants: ['on', 'off'] } });
  await ui.api.post(`/api/v1/namespaces/${ns}/flags/narrow/rules`, { segmentKey: 'beta', rank: 1 });
  const narrow = await open(t, `/namespaces/${ns}/flags/narrow`, { viewport: { width: 390, height: 844 } });
  await narrow.page.getByRole('heading', { name: 'Rule 1' }).waitFor();
  await expect.poll(() => narrow.page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth'), 'no sideways scrolling').toBe(false);
  await narrow.page.getByRole('switch', { name: 'Enabled' }).focus();
  await narrow.page.keyboard.press('Space');
  await narrow.page.getByText('Flag disabled').waitFor();
  await shot(narrow.page, 'flag-variant-narrow', true);
  await narrow.page.goto(`${ui.server.baseUrl}/namespaces/${ns}/flags`);
  await narrow.page.getByRole('link', { name: 'narrow' }).waitFor();
  await shot(narrow.page, 'flags-list-narrow');
  await narrow.close();

  const dark = await open(t, `/namespaces/${ns}/flags/narrow`, { colorScheme: 'dark' });
  await dark.page.getByRole('heading', { name: 'Rule 1' }).waitFor();
  await shot(dark.page, 'flag-variant-dark', true);
  await dark.page.getByRole('button', { name: 'Add variant' }).click();
  await dark.page.getByRole('dialog', { name: 'Add variant' }).getByLabel('Attachment').fill('{"a": [1, 2}');
  await shot(dark.page, 'variant-dialog-dark');
  await dark.close();
});
