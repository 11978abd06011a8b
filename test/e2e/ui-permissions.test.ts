/**
 * The UI under `authorization.required` with Flipt's example roles, in a real Chromium: a viewer
 * sees flags (their timeline too), segments, namespaces and tokens, but every control that would write is left out or
 * locked with a reason that names the role and the namespace; a 403 the page runs into anyway is
 * shown and leaves the session as it was; an editor creates and edits flags but may not create a
 * namespace or a token; the namespace switcher offers only the namespaces the session may view.
 * Tokens are made by the admin bootstrap token through the API; each test signs in as the sign-in
 * screen does. The tests run one after another in one browser.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLIPT_EXAMPLE_ROLES, scratchDir } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { withToken } from '../helpers/auth.js';
import { openPage, screenshot, useBrowser, useEnsign } from '../helpers/ui-browser.js';
import { enabledControls, lockedControls, lockReason } from '../helpers/ui-controls.js';
import { expect } from '../helpers/ui-expect.js';
import { signInWithToken } from '../helpers/ui-session.js';

const ADMIN = 'ui-permissions-admin-s3cret';

/** Flipt's example role data, a role that may change flags but not segments, and one that may only read one namespace. */
const ROLES = {
  roles: [
    ...FLIPT_EXAMPLE_ROLES.roles.filter((role) => role.name !== 'namespaced_viewer'),
    {
      name: 'author',
      rules: [
        { resource: 'namespace', actions: ['read'] },
        { resource: 'segment', actions: ['read'] },
        { resource: 'flag', actions: ['create', 'read', 'update', 'delete'] },
      ],
    },
    { name: 'team-a-reader', rules: [{ resource: '*', actions: ['read'], namespace: 'team-a' }] },
  ],
};

const rolesPath = join(scratchDir('ensign-ui-permissions-'), 'roles.json');
writeFileSync(rolesPath, JSON.stringify(ROLES));

const ensign = useEnsign(test, {
  env: {
    ENSIGN_AUTHENTICATION_REQUIRED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: ADMIN,
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_METADATA: JSON.stringify({ 'io.flipt.auth.role': 'admin' }),
    ENSIGN_AUTHORIZATION_REQUIRED: 'true',
    ENSIGN_AUTHORIZATION_LOCAL_DATA_PATH: rolesPath,
  },
});
const chromium = useBrowser(test);
const admin = () => withToken(ensign.server.baseUrl, ADMIN);

/** Refusals are provoked on purpose; Chromium logs each one. */
const REFUSALS = [/Failed to load resource: the server responded with a status of 4\d\d/];

const tokens: Record<string, string> = {};

test.serial.before('production with a variant flag, a boolean flag and a segment; team-a; a token per role', async () => {
  const api = admin();
  const ok = async (res: Promise<{ status: number; text: string; body: any }>, what: string) => {
    const answer = await res;
    if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  await ok(api.post('/api/v1/namespaces', { key: 'production', name: 'Production' }), 'production');
  await ok(api.post('/api/v1/namespaces', { key: 'team-a', name: 'Team A' }), 'team-a');
  const p = '/api/v1/namespaces/production';
  await ok(api.post(`${p}/segments`, { key: 'beta-users', name: 'Beta users', matchType: 'ALL_MATCH_TYPE' }), 'segment');
  await ok(api.post(`${p}/segments/beta-users/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }), 'constraint');
  await ok(api.post(`${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'VARIANT_FLAG_TYPE', enabled: true }), 'checkout');
  const red = await ok(api.post(`${p}/flags/checkout/variants`, { key: 'red', name: 'Red' }), 'red');
  await ok(api.post(`${p}/flags/checkout/variants`, { key: 'blue', name: 'Blue' }), 'blue');
  const rule = await ok(api.post(`${p}/flags/checkout/rules`, { segmentKey: 'beta-users', rank: 1 }), 'rule');
  await ok(api.post(`${p}/flags/checkout/rules/${rule.id}/distributions`, { variantId: red.id, rollout: 100 }), 'distribution');
  await ok(api.post(`${p}/flags`, { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE', enabled: false }), 'banner');
  await ok(api.post(`${p}/flags/banner/rollouts`, { rank: 1, threshold: { percentage: 25, value: true } }), 'rollout');
  await ok(api.post(`${p}/flags/banner/schedules`, { at: '2031-01-01T09:00:00Z', enabled: true }), 'schedule');
  for (const [name, role] of [['Vera', 'viewer'], ['Ed', 'editor'], ['Ada', 'author'], ['Tam', 'team-a-reader']]) {
    const made = await ok(api.post('/auth/v1/method/token', { name, description: '', metadata: { 'io.flipt.auth.role': role } }), `${role} token`);
    tokens[role ?? ''] = made.clientToken as string;
  }
});

/** Opens `path` signed in with the token of `role`, as the sign-in screen signs in. */
async function openAs(t: ExecutionContext, role: string, path: string) {
  const opened = await openPage(t, chromium.browser, `${ensign.server.baseUrl}/favicon.svg`, { allowConsoleErrors: REFUSALS });
  t.is(await signInWithToken(opened.page, tokens[role] ?? ''), 200);
  await opened.page.goto(`${ensign.server.baseUrl}${path}`);
  return opened;
}

/** Every locked control of the page gives a reason that names the viewer role and where. */
async function expectLockedForViewers(page: Page, what: string): Promise<void> {
  const withoutReason = async () => (await lockedControls(page)).filter((locked) => !/: Viewers can't [a-z ]+ (in production|to another namespace)$/.test(locked));
  await expect.poll(withoutReason, `${what}: locked without a viewer's reason`).toEqual([]);
}

const signedIn = (page: Page) => page.getByRole('button', { name: 'Sign out' }).waitFor();

test.serial('a viewer sees the flags, and every control that writes is left out or locked with its reason', async (t) => {
  const { page, close } = await openAs(t, 'viewer', '/namespaces/production/flags');
  await page.getByRole('link', { name: 'checkout' }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'New flag' }))).toBe("Viewers can't create flags in production");

  await page.getByRole('link', { name: 'checkout' }).click();
  await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
  const rule = page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: 'Rule 1', exact: true });
  await rule.getByRole('link', { name: 'beta-users' }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Delete flag' }))).toBe("Viewers can't delete flags in production");
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Add variant' }))).toBe("Viewers can't add variants in production");
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Add rule' }))).toBe("Viewers can't add rules in production");
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Copy to namespace…' }))).toBe("Viewers can't copy flags to another namespace");
  await page.getByRole('switch', { name: 'Enabled', disabled: true }).waitFor();
  await expect(page.locator('label.enabled-switch')).toHaveAttribute('title', "Viewers can't edit flags in production");
  await expect(page.getByLabel('Default variant')).toBeDisabled();
  await expect.poll(() => enabledControls(page), 'nothing that writes can be used').toEqual(['Copy key']);
  for (const name of [/^Edit/, /^Delete variant/, 'Move up', 'Move down', /^Save/]) await expect(page.getByRole('button', { name }), `no ${String(name)} button`).toHaveCount(0);
  await expect(page.locator('.drag-handle, [draggable="true"]'), 'nothing to drag').toHaveCount(0);
  await expectLockedForViewers(page, 'variant flag');
  await screenshot(page, 'permissions-viewer-flag', { fullPage: true });

  await page.goto(`${ensign.server.baseUrl}/namespaces/production/flags/banner`);
  await page.getByRole('list', { name: 'Rollouts' }).getByRole('listitem', { name: 'Rollout 1', exact: true }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Add rollout' }))).toBe("Viewers can't add rollouts in production");
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Add prerequisite' }))).toBe("Viewers can't edit flags in production");
  await expect.poll(() => enabledControls(page)).toEqual(['Copy key']);
  await expectLockedForViewers(page, 'boolean flag');

  // The timeline: the schedule is read, not changed.
  await page.getByRole('link', { name: 'Timeline' }).click();
  await page.getByRole('list', { name: 'Timeline' }).getByText('Switches the flag on').waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Schedule a change' }))).toBe("Viewers can't schedule flag changes in production");
  await expect(page.getByRole('button', { name: /^Cancel/ }), 'no pending change to cancel').toHaveCount(0);
  await expect.poll(() => enabledControls(page)).toEqual(['Copy key']);
  await expectLockedForViewers(page, 'timeline');
  await close();
});

test.serial('a viewer: segments, namespaces and tokens are read, not changed', async (t) => {
  const { page, close } = await openAs(t, 'viewer', '/namespaces/production/segments');
  await page.getByRole('link', { name: 'Beta users' }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'New segment' }))).toBe("Viewers can't create segments in production");
  await page.getByRole('link', { name: 'Beta users' }).click();
  await page.getByRole('cell', { name: 'plan' }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Delete segment' }))).toBe("Viewers can't delete segments in production");
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Add constraint' }))).toBe("Viewers can't add constraints in production");
  await expect.poll(() => lockReason(page.getByLabel('Match type'))).toBe("Viewers can't edit segments in production");
  await expect.poll(() => enabledControls(page)).toEqual(['Copy key']);
  await expect(page.getByRole('button', { name: /^(Edit|Delete) constraint/ })).toHaveCount(0);
  await expectLockedForViewers(page, 'segment');

  await page.getByRole('link', { name: 'Namespaces', exact: true }).click();
  await page.getByRole('cell', { name: 'production', exact: true }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'New namespace' }))).toBe("Viewers can't create namespaces");
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Import into namespace production' }))).toBe("Viewers can't import into production");
  await expect(page.getByRole('button', { name: /^(Edit|Delete) namespace/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export namespace production' }), 'reading a namespace whole is allowed').toBeEnabled();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
  await page.getByRole('row').filter({ hasText: 'Vera' }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Create token' }))).toBe("Viewers can't create API tokens");
  await expect(page.getByRole('button', { name: /^Delete token/ })).toHaveCount(0);
  await close();
});

test.serial('a 403 the page runs into anyway is shown, and the session stays', async (t) => {
  const { page, close } = await openAs(t, 'viewer', '/favicon.svg');
  // The page is told the viewer may do anything (as when a role was narrowed after the page asked): the service still refuses.
  const everything = { namespace: ['create', 'read', 'update', 'delete'], flag: ['create', 'read', 'update', 'delete'], segment: ['create', 'read', 'update', 'delete'] };
  await page.route('**/api/v1/permissions', (route) =>
    route.fulfill({ json: { authorizationRequired: true, namespaces: { default: everything, production: everything, 'team-a': everything }, authentication: ['create', 'read', 'update', 'delete'] } }),
  );
  const refused: string[] = [];
  page.on('response', (res) => {
    if (res.status() === 403) refused.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  await page.goto(`${ensign.server.baseUrl}/namespaces/production/flags/checkout`);
  await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();

  await page.getByRole('switch', { name: 'Enabled', disabled: false }).click();
  await page.getByText("The flag was not disabled: You don't have permission to do this. Ask an administrator of this service for a role that allows it.").waitFor();
  await expect(page.getByRole('switch', { name: 'Enabled' }), 'put back as the service holds it').toBeChecked();

  await page.getByRole('link', { name: 'Flags', exact: true }).first().click();
  await page.getByRole('button', { name: 'New flag', disabled: false }).click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Name', { exact: true }).fill('Sneaky');
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await dialog.getByRole('alert').getByText("You don't have permission to do this.", { exact: false }).waitFor();
  await expect(dialog.getByLabel('Name', { exact: true }), 'what was typed is kept').toHaveValue('Sneaky');
  t.deepEqual(refused, ['PUT /api/v1/namespaces/production/flags/checkout', 'POST /api/v1/namespaces/production/flags']);

  // Still signed in: the page keeps working, also after a reload.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await signedIn(page);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toHaveCount(0);
  await page.unroute('**/api/v1/permissions');
  await page.reload();
  await page.getByRole('link', { name: 'checkout' }).waitFor();
  await signedIn(page);
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'New flag' })), 'the real permissions again').toBe("Viewers can't create flags in production");
  t.is((await admin().get('/api/v1/namespaces/production/flags/sneaky')).status, 404, 'nothing was written');
  await close();
});

test.serial('an editor creates and edits a flag, but may not create a namespace or a token', async (t) => {
  const { page, close } = await openAs(t, 'editor', '/namespaces/production/flags');
  await page.getByRole('link', { name: 'checkout' }).waitFor();
  await page.getByRole('button', { name: 'New flag', disabled: false }).click();
  const dialog = page.getByRole('dialog', { name: 'New flag' });
  await dialog.getByLabel('Name', { exact: true }).fill('Editor pick');
  await dialog.getByRole('button', { name: 'Create flag' }).click();
  await page.waitForURL('**/namespaces/production/flags/editor-pick');
  await page.getByRole('heading', { name: 'Editor pick', level: 1 }).waitFor();

  await page.getByRole('button', { name: 'Add variant', disabled: false }).click();
  const variant = page.getByRole('dialog', { name: 'Add variant' });
  await variant.getByLabel('Key').fill('on');
  await variant.getByRole('button', { name: 'Create variant' }).click();
  await page.getByRole('cell', { name: 'on', exact: true }).waitFor();
  await page.getByLabel('Description', { exact: true }).fill('Chosen by an editor');
  await page.getByRole('button', { name: 'Save details' }).click();
  await page.getByText('Details saved').waitFor();
  t.like((await admin().get('/api/v1/namespaces/production/flags/editor-pick')).body, { name: 'Editor pick', description: 'Chosen by an editor', variants: [{ key: 'on' }] });
  await expect.poll(async () => (await lockedControls(page)).filter((locked) => locked.includes("can't")), 'nothing of a flag is locked for an editor').toEqual([]);
  await expect(page.getByRole('button', { name: 'Copy to namespace…' }), 'it may import into the other namespaces').toBeEnabled();

  await page.getByRole('link', { name: 'Namespaces', exact: true }).click();
  await page.getByRole('cell', { name: 'production', exact: true }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'New namespace' }))).toBe("Editors can't create namespaces");
  await expect(page.getByRole('button', { name: /^(Edit|Delete) namespace/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Import into namespace production' }), 'an editor may import flags and segments').toBeEnabled();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
  await page.getByRole('row').filter({ hasText: 'Ed' }).first().waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Create token' }))).toBe("Editors can't create API tokens");
  await expect(page.getByRole('button', { name: /^Delete token/ })).toHaveCount(0);
  await screenshot(page, 'permissions-editor-tokens');
  await close();
});

test.serial("distributions are checked as the segment's: a role that may change flags only edits a rule but not its split", async (t) => {
  const { page, close } = await openAs(t, 'author', '/namespaces/production/flags/checkout');
  const rule = page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: 'Rule 1', exact: true });
  await rule.getByRole('link', { name: 'beta-users' }).waitFor();
  await expect.poll(() => lockReason(page.getByRole('button', { name: 'Add rule' })), 'a new rule starts with a split').toBe("Authors can't add rules in production");
  await expect(page.getByRole('button', { name: 'Add variant' })).toBeEnabled();
  await rule.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit rule' });
  const split = dialog.getByRole('group', { name: 'Distribution' });
  await expect.poll(() => lockReason(dialog.getByLabel('red percentage')), 'the field itself names no reason').toBe(null);
  await expect(split).toHaveAttribute('title', "Authors can't change rule distributions in production");
  await expect(dialog.getByRole('button', { name: 'Split evenly' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await page.getByText('Rule saved').waitFor();
  await close();
});

test.serial('the namespace switcher offers only the namespaces the session may view', async (t) => {
  const offers = async (role: string, expected: string[]) => {
    const { page, close } = await openAs(t, role, role === 'team-a-reader' ? '/namespaces/team-a/flags' : '/namespaces/production/flags');
    await page.getByRole('heading', { name: 'Flags', level: 1 }).waitFor();
    const switcher = page.getByLabel('Namespace', { exact: true });
    // Named once the list is there (until then the switcher holds the current key alone).
    await switcher.locator('option', { hasText: 'Team A (team-a)' }).waitFor({ state: 'attached' });
    const offered = async () => (await switcher.locator('option').evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? ''))).sort();
    await expect.poll(offered, `${role}: the namespaces offered`).toEqual(expected);
    await close();
  };
  await offers('team-a-reader', ['team-a']);
  await offers('viewer', ['default', 'production', 'team-a']);
});
