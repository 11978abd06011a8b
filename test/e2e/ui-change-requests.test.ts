/**
 * Change requests in the UI, in a real Chromium, with two people signed in with their own tokens:
 * Ada protects prod from its change requests page, then edits a flag there; the edit lands in her
 * draft (the banner links it and counts its changes) and she submits it; Bo approves and applies
 * it, and the flag has changed, through the API and on its page. Then Ada promotes staging to prod
 * with "Promote to…" (the preview first), and the request goes through review to applied. A draft
 * whose flag changed meanwhile says so and is re-based. Last, the change requests pages and the
 * protected banner on a phone.
 */
import { eventually } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { ok } from '../helpers/api.js';
import { withToken } from '../helpers/auth.js';
import { openPage, type OpenedPage, type PageOptions, screenshot, useBrowser, useEnsign } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';
import { signInWithToken } from '../helpers/ui-session.js';

const ADMIN = 'ui-change-requests-admin-s3cret';
const PHONE = { width: 390, height: 844 };

const ensign = useEnsign(test, {
  env: {
    ENSIGN_AUTHENTICATION_REQUIRED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: ADMIN,
  },
});
const chromium = useBrowser(test);
const admin = () => withToken(ensign.server.baseUrl, ADMIN);

const tokens: Record<'ada' | 'bo', string> = { ada: '', bo: '' };

interface FlagBody {
  key: string;
  name: string;
  enabled: boolean;
}

test.serial.before('prod and staging, each with a checkout flag (staging’s renamed and on, with a banner flag too), and a token each for Ada and Bo', async () => {
  const api = admin();
  ok(await api.post('/api/v1/namespaces', { key: 'prod', name: 'Production' }), 'prod');
  ok(await api.post('/api/v1/namespaces', { key: 'staging', name: 'Staging' }), 'staging');
  ok(await api.post('/api/v1/namespaces/prod/flags', { key: 'checkout', name: 'Checkout', type: 'BOOLEAN_FLAG_TYPE', enabled: false }), 'prod checkout');
  ok(await api.post('/api/v1/namespaces/staging/flags', { key: 'checkout', name: 'Checkout v2', type: 'BOOLEAN_FLAG_TYPE', enabled: true }), 'staging checkout');
  ok(await api.post('/api/v1/namespaces/staging/flags', { key: 'banner', name: 'Banner', type: 'BOOLEAN_FLAG_TYPE', enabled: true }), 'staging banner');
  ok(await api.post('/api/v1/namespaces/staging/flags/banner/rollouts', { rank: 1, threshold: { percentage: 30, value: true } }), 'banner rollout');
  for (const name of ['ada', 'bo'] as const) {
    tokens[name] = (ok(await api.post('/auth/v1/method/token', { name: name === 'ada' ? 'Ada' : 'Bo', description: '' }), `${name} token`) as { clientToken: string }).clientToken;
  }
});

/** Opens `path` signed in as `who`, as the sign-in screen signs in. */
async function openAs(t: ExecutionContext, who: 'ada' | 'bo', path: string, options: PageOptions = {}): Promise<OpenedPage> {
  const opened = await openPage(t, chromium.browser, `${ensign.server.baseUrl}/favicon.svg`, options);
  t.is(await signInWithToken(opened.page, tokens[who]), 200);
  await opened.page.goto(`${ensign.server.baseUrl}${path}`);
  await opened.page.getByRole('button', { name: 'Sign out' }).waitFor();
  return opened;
}

const banner = (page: Page) => page.getByRole('region', { name: 'Protected namespace' });
const state = (page: Page, label: string) => page.getByLabel(`State: ${label}`, { exact: true });

async function prodFlag(key: string): Promise<FlagBody | undefined> {
  const res = await admin().get(`/api/v1/namespaces/prod/flags/${key}`);
  return res.status === 200 ? (res.body as FlagBody) : undefined;
}

/** Bo opens the request titled `title` from prod's list, approves it and applies it. */
async function approveAndApply(t: ExecutionContext, title: string): Promise<OpenedPage> {
  const bo = await openAs(t, 'bo', '/namespaces/prod/change-requests');
  const { page } = bo;
  await page.getByRole('list', { name: 'Change requests' }).getByRole('link', { name: title }).click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await state(page, 'In review').waitFor();
  await page.getByText('0 of 1 approval').waitFor();
  await page.getByRole('button', { name: 'Approve' }).click();
  await state(page, 'Approved').waitFor();
  await page.getByText('approved by Bo').waitFor();
  await page.getByRole('button', { name: 'Apply now' }).click();
  await page.getByRole('dialog', { name: 'Apply change request' }).getByRole('button', { name: 'Apply now' }).click();
  await state(page, 'Applied').waitFor();
  return bo;
}

test.serial('an edit of a protected namespace lands in the author’s draft; submitted, another person approves and applies it, and the flag changes', async (t) => {
  const ada = await openAs(t, 'ada', '/namespaces/prod/change-requests');
  const { page } = ada;
  // The policy is on the change requests page: Ada protects prod.
  const policy = page.getByLabel('Required approvals');
  await page.getByRole('heading', { name: 'Review policy' }).waitFor();
  await page.getByText('Edits of prod apply at once.', { exact: false }).waitFor();
  await policy.fill('1');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await banner(page).getByText('Changes to prod need 1 approval before they apply.').waitFor();
  t.is((ok(await admin().get('/api/v1/namespaces/prod/change-policy')) as { requiredApprovals: number }).requiredApprovals, 1);

  // Ada switches checkout on: it goes into a new draft, and the flag stays off.
  await page.goto(`${ensign.server.baseUrl}/namespaces/prod/flags/checkout`);
  await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
  await banner(page).getByText('Your edits go into a draft change request').waitFor();
  await page.getByRole('switch', { name: 'Enabled', checked: false }).click();
  const draftLink = banner(page).getByRole('link', { name: 'Draft changes' });
  await draftLink.waitFor();
  await banner(page).getByText('1 change', { exact: true }).waitFor();
  await page.getByText('is in your draft “Draft changes” (1 change)', { exact: false }).waitFor();
  await page.getByRole('switch', { name: 'Enabled', checked: false }).waitFor();
  t.false((await prodFlag('checkout'))?.enabled, 'nothing applied yet');
  await screenshot(page, 'change-requests-draft-banner');

  // The draft shows its change as the History tab does, and Ada submits it.
  await draftLink.click();
  await page.getByRole('heading', { name: 'Draft changes', level: 1 }).waitFor();
  await state(page, 'Draft').waitFor();
  const change = page.getByRole('list', { name: 'Changes' }).getByRole('listitem').filter({ hasText: 'Updated the flag' });
  await change.getByRole('list', { name: 'Changed fields' }).getByText('enabled', { exact: true }).waitFor();
  await expect(change.getByRole('list', { name: 'Changed fields' })).toHaveText(/enabled: false → true/);
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await state(page, 'In review').waitFor();
  await page.getByText('You wrote this request: someone else approves it.').waitFor();
  await expect(page.getByRole('button', { name: 'Approve' }), 'the author cannot approve').toHaveCount(0);
  await banner(page).getByText('Your edits go into a draft change request').waitFor();
  await screenshot(page, 'change-requests-in-review', { fullPage: true });

  // Bo approves and applies it.
  const bo = await approveAndApply(t, 'Draft changes');
  t.true(await eventually(async () => (await prodFlag('checkout'))?.enabled === true), 'the flag is on');
  await bo.page.getByRole('list', { name: 'Events' }).getByText('Bo', { exact: true }).waitFor();
  await screenshot(bo.page, 'change-requests-applied', { fullPage: true });
  await bo.page.goto(`${ensign.server.baseUrl}/namespaces/prod/flags/checkout`);
  await bo.page.getByRole('switch', { name: 'Enabled', checked: true }).waitFor();
  // Its history names the request it was applied by.
  await bo.page.getByRole('link', { name: 'History' }).click();
  await bo.page.getByRole('list', { name: 'Changes' }).getByRole('link', { name: 'Draft changes' }).waitFor();
  await bo.close();

  // Ada's page shows it on too, and her banner has no draft any more.
  await page.goto(`${ensign.server.baseUrl}/namespaces/prod/flags/checkout`);
  await page.getByRole('switch', { name: 'Enabled', checked: true }).waitFor();
  await banner(page).getByText('Your edits go into a draft change request').waitFor();
  await ada.close();
});

test.serial('"Promote to…" staging → prod: the preview, then the request through review to applied', async (t) => {
  const ada = await openAs(t, 'ada', '/namespaces/staging/flags');
  const { page } = ada;
  await page.getByRole('link', { name: 'banner' }).waitFor();
  await page.getByRole('button', { name: 'Promote to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote staging to…' });
  await dialog.getByLabel('Target namespace').selectOption('prod');
  const preview = dialog.getByRole('region', { name: 'Promotion preview' });
  await preview.getByRole('list', { name: 'Preview' }).getByText('Created the flag').waitFor();
  // Only checkout: its rename alone.
  await dialog.getByRole('radio', { name: 'Only the flags and segments chosen' }).check();
  await dialog.getByText('Choose at least one flag or segment.').waitFor();
  await dialog.getByRole('group', { name: 'Flags' }).getByRole('checkbox', { name: 'checkout' }).check();
  await preview.locator('.promote-preview:not(.stale)').getByText('1 change', { exact: true }).waitFor();
  await expect(preview.getByRole('list', { name: 'Preview' }).locator(':scope > li'), 'one change').toHaveCount(1);
  await preview.getByText('Checkout v2').waitFor();
  await dialog.getByRole('radio', { name: 'Every flag and segment' }).check();
  await preview.locator('.promote-preview:not(.stale)').getByRole('list', { name: 'Preview' }).getByText('Created the flag').waitFor();
  await expect(preview.locator('.promote-count strong'), "the banner flag and its rollout, and checkout's name").toHaveText(/^([2-9]|[1-9]\d+) changes$/);
  await preview.getByRole('link', { name: 'banner' }).first().waitFor();
  await preview.getByText('Checkout v2', { exact: false }).first().waitFor();
  await expect(dialog.getByLabel('Title')).toHaveValue('Promote staging to prod');
  await screenshot(page, 'change-requests-promote-preview');
  t.is(await prodFlag('banner'), undefined, 'a preview stores nothing');

  await dialog.getByRole('button', { name: 'Create change request' }).click();
  await page.waitForURL(/\/namespaces\/prod\/change-requests\/[^/]+$/);
  await page.getByRole('heading', { name: 'Promote staging to prod', level: 1 }).waitFor();
  await state(page, 'Draft').waitFor();
  await page.getByRole('list', { name: 'Changes' }).getByText('Created the flag').waitFor();
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await state(page, 'In review').waitFor();

  const bo = await approveAndApply(t, 'Promote staging to prod');
  await bo.close();
  t.true(await eventually(async () => (await prodFlag('banner'))?.enabled === true), 'the banner flag is in prod');
  t.is((await prodFlag('checkout'))?.name, 'Checkout v2');
  await page.goto(`${ensign.server.baseUrl}/namespaces/prod/flags`);
  await page.getByRole('link', { name: 'banner' }).waitFor();
  await ada.close();
});

test.serial('a draft whose flag changed since it was written says so, and is re-based; cancelled, it is closed', async (t) => {
  const ada = await openAs(t, 'ada', '/namespaces/prod/flags/checkout');
  const { page } = ada;
  await page.getByLabel('Description').fill('One-page checkout');
  await page.getByRole('button', { name: 'Save details' }).click();
  const draftLink = banner(page).getByRole('link', { name: 'Draft changes' });
  await draftLink.waitFor();
  await expect(page.getByLabel('Description'), 'the field shows what is applied').toHaveValue('');

  // Meanwhile the flag is changed directly, with the policy lowered and raised again.
  const api = admin();
  ok(await api.put('/api/v1/namespaces/prod/change-policy', { requiredApprovals: 0 }), 'unprotect');
  ok(await api.put('/api/v1/namespaces/prod/flags/checkout', { name: 'Checkout v2', description: 'Changed meanwhile', enabled: true }), 'direct edit');
  ok(await api.put('/api/v1/namespaces/prod/change-policy', { requiredApprovals: 1 }), 'protect');

  await draftLink.click();
  await page.getByRole('heading', { name: 'Draft changes', level: 1 }).waitFor();
  const conflict = page.getByRole('alert').filter({ hasText: 'Changed since the request was written:' });
  await conflict.waitFor();
  await conflict.getByRole('button', { name: 'Re-base' }).click();
  await conflict.waitFor({ state: 'detached' });
  const fields = page.getByRole('list', { name: 'Changes' }).getByRole('list', { name: 'Changed fields' });
  await fields.getByText('Changed meanwhile').waitFor();
  await expect(fields).toHaveText(/description: Changed meanwhile → One-page checkout/);

  await page.getByRole('button', { name: 'Cancel request' }).click();
  await page.getByRole('dialog', { name: 'Cancel change request' }).getByRole('button', { name: 'Cancel request' }).click();
  await state(page, 'Cancelled').waitFor();
  await banner(page).getByText('Your edits go into a draft change request').waitFor();
  await ada.close();
});

/** The page's width against the window's. */
const widths = (page: Page) => page.evaluate<{ scrollWidth: number; innerWidth: number }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');

test.serial('on a phone the change requests page, a request and the protected banner fit the screen', async (t) => {
  const ada = await openAs(t, 'ada', '/namespaces/prod/change-requests?state=all', { viewport: PHONE });
  const { page } = ada;
  const tooWide: string[] = [];
  const check = async (name: string) => {
    const { scrollWidth, innerWidth } = await widths(page);
    if (scrollWidth > innerWidth) tooWide.push(`${name}: ${scrollWidth}px in a ${innerWidth}px window`);
    await screenshot(page, `phone-change-requests-${name}`, { fullPage: true });
  };
  const list = page.getByRole('list', { name: 'Change requests' });
  const applied = list.getByRole('listitem').filter({ hasText: 'Draft changes' }).filter({ hasText: 'Applied' }).getByRole('link');
  await applied.waitFor();
  await banner(page).waitFor();
  await check('list');

  await applied.click();
  await state(page, 'Applied').waitFor();
  await page.getByRole('list', { name: 'Changes' }).getByText('Updated the flag').waitFor();
  await check('request');

  // A new edit on the phone: a draft with its actions.
  await page.goto(`${ensign.server.baseUrl}/namespaces/prod/flags/checkout`);
  await page.getByRole('switch', { name: 'Enabled', checked: true }).click();
  await banner(page).getByRole('link', { name: 'Draft changes' }).click();
  await page.getByRole('button', { name: 'Submit for review' }).waitFor();
  await check('draft');

  await page.goto(`${ensign.server.baseUrl}/namespaces/staging/flags`);
  await page.getByRole('button', { name: 'Promote to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote staging to…' });
  await dialog.getByLabel('Target namespace').selectOption('prod');
  await dialog.getByRole('region', { name: 'Promotion preview' }).locator('.empty-state, .promote-preview').first().waitFor();
  await check('promote');
  t.deepEqual(tooWide, [], 'no page scrolls sideways');
  await ada.close();
});
