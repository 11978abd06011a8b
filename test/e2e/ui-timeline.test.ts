/**
 * A flag's Timeline in a real Chromium set to America/New_York: its scheduled changes, its
 * rollouts' windows and its ramp's steps in time order with "now" between the past and the
 * future, in local time and then in UTC as the Preferences say; scheduling a change (one in the
 * past refused beside its field) and cancelling it, both in the flag's history; a ramp and windows
 * edited in the rollout and rule dialogs (a bound cleared with ""); the console saying which rule
 * a window skipped; steps taken by the service when they come due, in the timeline and the
 * history; and the tab on a phone in light and dark.
 */
import { eventually } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test);

const NS = 'timeline';
const FLAG = 'launch';
const RULE_FLAG = 'banner';
const ZONE = 'America/New_York';
const BROWSER: PageOptions = { timezoneId: ZONE, locale: 'en-US' };
/** The schedule in the past is refused on purpose; Chromium logs the refusal. */
const REFUSALS = [/Failed to load resource: the server responded with a status of 4\d\d/];
const PHONE = { width: 390, height: 844 };
const flagPath = (key: string) => `/api/v1/namespaces/${NS}/flags/${key}`;

/** What the seeded timeline of FLAG shows: a window that opened long ago, then now, then a ramp step, a schedule, the window's end and the last ramp step. */
const SEEDED = {
  local: [
    '2020-06-01 08:00 EDT | Rollout 2 started to apply | Applied',
    'now',
    '2031-01-15 09:00 EST | Rollout 1 rises to 25% | Upcoming',
    '2031-01-20 10:00 EST | Switches the flag off | Upcoming',
    '2031-02-01 12:30 EST | Rollout 2 stops applying | Upcoming',
    '2031-07-01 10:00 EDT | Rollout 1 rises to 50% | Upcoming',
  ],
  utc: [
    '2020-06-01 12:00 UTC | Rollout 2 started to apply | Applied',
    'now',
    '2031-01-15 14:00 UTC | Rollout 1 rises to 25% | Upcoming',
    '2031-01-20 15:00 UTC | Switches the flag off | Upcoming',
    '2031-02-01 17:30 UTC | Rollout 2 stops applying | Upcoming',
    '2031-07-01 14:00 UTC | Rollout 1 rises to 50% | Upcoming',
  ],
};

async function ok<T = Record<string, unknown>>(t: ExecutionContext, response: Promise<{ status: number; text: string; body: unknown }>, label: string): Promise<T> {
  const res = await response;
  t.is(res.status, 200, `${label}: ${res.text}`);
  return res.body as T;
}

test.serial.before('a boolean flag with a ramp, a windowed rollout and a schedule; a variant flag with a rule', async (t) => {
  const api = ui.api;
  await ok(t, api.post('/api/v1/namespaces', { key: NS, name: 'Timeline' }), 'namespace');
  await ok(t, api.post(`/api/v1/namespaces/${NS}/segments`, { key: 'beta', name: 'Beta', matchType: 'ALL_MATCH_TYPE' }), 'segment');
  await ok(t, api.post(`/api/v1/namespaces/${NS}/flags`, { key: FLAG, name: 'Launch', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }), 'flag');
  await ok(
    t,
    api.post(`${flagPath(FLAG)}/rollouts`, {
      rank: 1,
      description: '',
      threshold: { percentage: 10, value: true, ramp: [{ at: '2031-01-15T14:00:00Z', percentage: 25 }, { at: '2031-07-01T14:00:00Z', percentage: 50 }] },
    }),
    'ramp',
  );
  await ok(
    t,
    api.post(`${flagPath(FLAG)}/rollouts`, { rank: 2, description: '', segment: { segmentKey: 'beta', value: true }, validFrom: '2020-06-01T12:00:00Z', validUntil: '2031-02-01T17:30:00Z' }),
    'window',
  );
  await ok(t, api.post(`${flagPath(FLAG)}/schedules`, { at: '2031-01-20T15:00:00Z', enabled: false }), 'schedule');
  await ok(t, api.post(`/api/v1/namespaces/${NS}/flags`, { key: RULE_FLAG, name: 'Banner', enabled: true, type: 'VARIANT_FLAG_TYPE' }), 'variant flag');
  await ok(t, api.post(`${flagPath(RULE_FLAG)}/variants`, { key: 'wide', name: 'Wide' }), 'variant');
  await ok(t, api.post(`${flagPath(RULE_FLAG)}/rules`, { segmentKey: 'beta', rank: 1 }), 'rule');
});

const open = (t: ExecutionContext, path: string, options: PageOptions = {}) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, { ...BROWSER, ...options, allowConsoleErrors: REFUSALS });

const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline' });

/** The timeline as rows of `time | what | status`, and `now` where the marker stands. */
const timelineRows = (page: Page): Promise<string[]> =>
  timeline(page)
    .locator(':scope > li')
    .evaluateAll((items) =>
      items.map((li) =>
        li.classList.contains('timeline-now')
          ? 'now'
          : [li.querySelector('.timeline-time'), li.querySelector('.timeline-text'), li.querySelector('.badge')].map((el) => (el?.textContent ?? '').trim()).join(' | '),
      ),
    );

/** A step of the timeline by its time as shown. */
const stepAt = (page: Page, shown: string): Locator => timeline(page).getByRole('listitem').filter({ has: page.locator('time', { hasText: shown }) });

const schedulesOf = async (t: ExecutionContext, key: string) => (await ok<{ schedules: Array<{ id: string; at: string; enabled: boolean; status: string }> }>(t, ui.api.get(`${flagPath(key)}/schedules`), 'schedules')).schedules;
const rolloutsOf = async (t: ExecutionContext, key: string) =>
  (await ok<{ rules: Array<{ id: string; rank: number; validFrom?: string; validUntil?: string; threshold?: { percentage: number; ramp?: Array<{ at: string; percentage: number }> } }> }>(t, ui.api.get(`${flagPath(key)}/rollouts`), 'rollouts')).rules;

test.serial('the timeline lists the schedule, the window and the ramp steps in time order, in local time and then in UTC', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/${FLAG}`);
  await page.getByRole('navigation', { name: 'Flag sections' }).getByRole('link', { name: 'Timeline' }).click();
  await page.waitForURL(`**/flags/${FLAG}/timeline`);
  await stepAt(page, '2031-07-01 10:00 EDT').waitFor();
  await expect.poll(() => timelineRows(page)).toEqual(SEEDED.local);
  await expect(page.getByRole('separator', { name: 'Now' })).toHaveCount(1);
  await expect(timeline(page).getByRole('listitem').first().locator('time'), 'the instant itself in the markup').toHaveAttribute('datetime', '2020-06-01T12:00:00.000Z');
  await expect(page.getByRole('link', { name: 'history', exact: true })).toHaveAttribute('href', `/namespaces/${NS}/flags/${FLAG}/history`);
  await screenshot(page, 'timeline-local', { fullPage: true });

  // The rollouts' cards say the same, in the same zone.
  await page.getByRole('link', { name: 'Overview' }).click();
  const rollouts = page.getByRole('list', { name: 'Rollouts' });
  const ramp = rollouts.getByRole('listitem', { name: 'Rollout 1', exact: true }).getByRole('list', { name: 'Ramp' });
  await expect(ramp.getByRole('listitem')).toHaveText(['25% from 2031-01-15 09:00 EST', '50% from 2031-07-01 10:00 EDT'], { useInnerText: true });
  await expect(rollouts.getByRole('listitem', { name: 'Rollout 2', exact: true }).locator('.window-summary')).toHaveText('Applies from 2020-06-01 08:00 EDT until 2031-02-01 12:30 EST', { useInnerText: true });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Preferences' }).click();
  await page.getByRole('radio', { name: 'UTC', exact: true }).check();
  await page.goBack();
  await page.goBack();
  await page.waitForURL(`**/flags/${FLAG}/timeline`);
  await stepAt(page, '2031-07-01 14:00 UTC').waitFor();
  await expect.poll(() => timelineRows(page)).toEqual(SEEDED.utc);
  await close();
});

test.serial('a change scheduled in the past is refused beside its field; one to come is listed, then cancelled; both are in the history', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/${FLAG}/timeline`);
  await stepAt(page, '2031-07-01 10:00 EDT').waitFor();
  await page.getByRole('button', { name: 'Schedule a change' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule a change' });
  await expect(dialog.getByRole('radio', { name: 'Switch the flag off' }), 'the opposite of its state now, to start with').toBeChecked();
  await expect(dialog.getByRole('button', { name: 'Schedule change' }), 'nothing to schedule without a time').toBeDisabled();
  const when = dialog.getByLabel('When');
  await expect(when).toHaveAccessibleDescription(/Times are in America\/New_York/);
  await when.fill('2020-01-01T09:00');
  await dialog.getByRole('button', { name: 'Schedule change' }).click();
  await dialog.locator('.field-error').waitFor();
  await expect(when, "the service's refusal beside the field").toHaveAccessibleDescription(/The time must be in the future; 2020-01-01T14:00:00(\.000)?Z has passed/);
  await expect(when, 'what was typed is kept').toHaveValue('2020-01-01T09:00');
  await expect(dialog.locator('.error-banner'), 'nothing above the form').toHaveCount(0);
  await screenshot(page, 'timeline-schedule-refused');

  await when.fill('2031-05-01T09:00');
  await dialog.getByRole('radio', { name: 'Switch the flag on' }).check();
  await dialog.getByRole('button', { name: 'Schedule change' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const step = stepAt(page, '2031-05-01 09:00 EDT');
  await step.waitFor();
  await expect(step.locator('.timeline-text')).toHaveText('Switches the flag on', { useInnerText: true });
  await expect(step.locator('.badge')).toHaveText('Upcoming', { useInnerText: true });
  const stored = (await schedulesOf(t, FLAG)).find((s) => s.at.startsWith('2031-05-01'));
  t.like(stored, { at: '2031-05-01T13:00:00.000Z', enabled: true, status: 'pending' }, 'read in New York, stored in UTC');

  await step.getByRole('button', { name: 'Cancel: switches the flag on at 2031-05-01 09:00 EDT' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel scheduled change' });
  await confirm.getByRole('button', { name: 'Cancel change' }).click();
  await step.locator('.badge', { hasText: 'Cancelled' }).waitFor();
  await expect(step.locator('.timeline-text')).toHaveText('Switch the flag on', { useInnerText: true });
  await expect(step.getByRole('button'), 'a cancelled change cannot be cancelled again').toHaveCount(0);
  t.is((await schedulesOf(t, FLAG)).find((s) => s.id === stored?.id)?.status, 'cancelled');

  await page.getByRole('link', { name: 'history', exact: true }).click();
  const changes = page.getByRole('list', { name: 'Changes' });
  await changes.getByRole('listitem', { name: 'Cancelled switching the flag on', exact: true }).waitFor();
  await changes.getByRole('listitem', { name: 'Scheduled switching the flag on', exact: true }).waitFor();
  await expect(changes.getByRole('listitem', { name: 'Scheduled switching the flag off', exact: true }), 'the seeded one too').toBeVisible();
  await close();
});

test.serial('a ramp and a window edited in the rollout dialog: a falling step is shown beside its row; cleared bounds are sent as ""', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/${FLAG}`);
  const rollout = page.getByRole('list', { name: 'Rollouts' }).getByRole('listitem', { name: 'Rollout 1', exact: true });
  await rollout.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit rollout' });
  await expect(dialog.getByLabel('Step 1 time')).toHaveValue('2031-01-15T09:00');
  await expect(dialog.getByLabel('Step 2 percentage')).toHaveValue('50');
  await dialog.getByRole('button', { name: 'Add step' }).click();
  await dialog.getByLabel('Step 3 time').fill('2031-09-01T09:00');
  await dialog.getByLabel('Step 3 percentage').fill('40');
  await dialog.getByText('Must be above 50%.').waitFor();
  await expect(dialog.getByLabel('Step 3 percentage'), 'beside the step that falls').toHaveAccessibleDescription('Must be above 50%.');
  await expect(dialog.getByRole('button', { name: 'Save rollout' }), 'a falling ramp is not sent').toBeDisabled();
  await dialog.getByLabel('Step 3 percentage').fill('100');
  await dialog.getByLabel('Valid until').fill('2032-01-01T00:00');
  const put = page.waitForRequest((r) => r.method() === 'PUT' && /\/rollouts\/[^/]+$/.test(new URL(r.url()).pathname));
  await dialog.getByRole('button', { name: 'Save rollout' }).click();
  t.like((await put).postDataJSON(), { threshold: { percentage: 10, ramp: [{ percentage: 25 }, { percentage: 50 }, { at: '2031-09-01T13:00:00Z', percentage: 100 }] }, validUntil: '2032-01-01T05:00:00Z' });
  t.false('validFrom' in (await put).postDataJSON(), 'a bound never set is left out');
  await dialog.waitFor({ state: 'hidden' });
  let [first] = await rolloutsOf(t, FLAG);
  t.deepEqual(first?.threshold?.ramp?.map((s) => s.percentage), [25, 50, 100]);
  t.is(first?.validUntil, '2032-01-01T05:00:00.000Z');
  await rollout.getByRole('list', { name: 'Ramp' }).getByText('2031-09-01 09:00 EDT').waitFor();

  // Removing every step and the end clears them: [] and "".
  await rollout.getByRole('button', { name: 'Edit' }).click();
  for (const step of [3, 2, 1]) await dialog.getByRole('button', { name: `Remove step ${step}` }).click();
  await dialog.getByLabel('Valid until').fill('');
  const cleared = page.waitForRequest((r) => r.method() === 'PUT' && /\/rollouts\/[^/]+$/.test(new URL(r.url()).pathname));
  await dialog.getByRole('button', { name: 'Save rollout' }).click();
  t.like((await cleared).postDataJSON(), { threshold: { ramp: [] }, validUntil: '' });
  await dialog.waitFor({ state: 'hidden' });
  [first] = await rolloutsOf(t, FLAG);
  t.is(first?.threshold?.ramp, undefined, 'no ramp any more');
  t.is(first?.validUntil, undefined, 'no end any more');
  await rollout.getByRole('list', { name: 'Ramp' }).waitFor({ state: 'detached' });
  await close();
});

test.serial('a rule given a window in its dialog shows on its card and the timeline, and the console says when it skipped the rule', async (t) => {
  const { page, close } = await open(t, `/namespaces/${NS}/flags/${RULE_FLAG}`);
  const rule = page.getByRole('list', { name: 'Rules' }).getByRole('listitem', { name: 'Rule 1', exact: true });
  await rule.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit rule' });
  await dialog.getByLabel('Valid from').fill('2031-03-01T08:00');
  await dialog.getByLabel('Valid until').fill('2031-02-01T08:00');
  await dialog.getByText('Valid until must be later than valid from.').waitFor();
  await expect(dialog.getByRole('button', { name: 'Save rule' })).toBeDisabled();
  await dialog.getByLabel('Valid until').fill('');
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await rule.locator('.window-summary', { hasText: 'Not yet' }).waitFor();
  await expect(rule.locator('.window-summary')).toHaveText('Applies from 2031-03-01 08:00 EST Not yet', { useInnerText: true });
  const stored = (await ok<{ rules: Array<{ validFrom?: string; validUntil?: string }> }>(t, ui.api.get(`${flagPath(RULE_FLAG)}/rules`), 'rules')).rules[0];
  t.is(stored?.validFrom, '2031-03-01T13:00:00.000Z');
  t.is(stored?.validUntil, undefined);

  await page.getByRole('link', { name: 'Timeline' }).click();
  await stepAt(page, '2031-03-01 08:00 EST').waitFor();
  await expect.poll(() => timelineRows(page)).toEqual(['now', '2031-03-01 08:00 EST | Rule 1 starts to apply | Upcoming']);

  await page.getByRole('link', { name: 'Evaluate in console' }).click();
  await page.getByLabel('Entity ID').fill('user-1');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await result.getByRole('list', { name: 'Skipped for their window' }).waitFor();
  await expect(result.getByRole('list', { name: 'Skipped for their window' })).toHaveText('Rule 1 was skipped: it applies from 2031-03-01 08:00 EST', { useInnerText: true });
  await close();
});

test.serial('steps that come due are taken by the service: the timeline marks them applied and the history says what they did', async (t) => {
  await ok(t, ui.api.post(`/api/v1/namespaces/${NS}/flags`, { key: 'soon', name: 'Soon', enabled: true, type: 'BOOLEAN_FLAG_TYPE' }), 'flag');
  // Far enough ahead for both writes to arrive before it on a loaded machine; `eventually` waits 10 s in all.
  const at = new Date(Date.now() + 4_000).toISOString();
  await ok(t, ui.api.post(`${flagPath('soon')}/rollouts`, { rank: 1, description: '', segment: { segmentKey: 'beta', value: true }, validFrom: at }), 'window');
  await ok(t, ui.api.post(`${flagPath('soon')}/schedules`, { at, enabled: false }), 'schedule');
  const applied = async () => ((await ui.api.get(`${flagPath('soon')}/schedules`)).body as { schedules: Array<{ status: string }> }).schedules[0]?.status === 'applied';
  t.true(await eventually(applied), 'the service applies the schedule on time');

  const { page, close } = await open(t, `/namespaces/${NS}/flags/soon/timeline`);
  await timeline(page).getByText('Switched the flag off').waitFor();
  const withoutTimes = async () => (await timelineRows(page)).map((row) => row.replace(/^[^|]+\| /, ''));
  await expect.poll(withoutTimes).toEqual(['Switched the flag off | Applied', 'Rollout 1 started to apply | Applied', 'now']);
  await expect(page.getByRole('switch', { name: 'Enabled' }), 'the flag is off').not.toBeChecked();
  await page.getByRole('link', { name: 'history', exact: true }).click();
  const changes = page.getByRole('list', { name: 'Changes' });
  const switched = changes.getByRole('listitem', { name: 'Switched the flag off as scheduled', exact: true });
  await switched.waitFor();
  await expect(switched.locator('.change-meta'), 'made by the schedule').toHaveText(/^schedule · /, { useInnerText: true });
  await expect(switched.locator('.change-lines')).toHaveText('enabled: true → false', { useInnerText: true });
  await changes.getByRole('listitem', { name: 'The rollout for beta started to apply', exact: true }).waitFor();
  await close();
});

/** The page's width against the window's, and the innermost elements past the window's right edge outside a box that scrolls or clips. */
const OVERFLOW = `(() => {
  const past = (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5;
  const clipped = (el) => {
    for (let up = el.parentElement; up !== document.body && up !== null; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return true;
    return false;
  };
  const wide = [...document.querySelectorAll('body *')]
    .filter((el) => past(el) && !clipped(el))
    .slice(-5)
    .map((el) => el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + ' → ' + Math.round(el.getBoundingClientRect().right) + 'px');
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, wide };
})()`;

async function fits(t: ExecutionContext, page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth, wide } = await page.evaluate<{ scrollWidth: number; innerWidth: number; wide: string[] }>(OVERFLOW);
  t.true(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth}px wide in a ${innerWidth}px window; ${wide.join(', ')}`);
}

for (const scheme of ['light', 'dark'] as const) {
  test.serial(`on a phone the timeline, the ramp editor and the rollouts fit the screen (${scheme})`, async (t) => {
    await ok(t, ui.api.put(`${flagPath(FLAG)}/rollouts/${(await rolloutsOf(t, FLAG))[0]?.id ?? ''}`, {
      description: '',
      threshold: { percentage: 10, value: true, ramp: [{ at: '2031-01-15T14:00:00Z', percentage: 25 }, { at: '2031-07-01T14:00:00Z', percentage: 50 }] },
    }), 'the ramp again');
    const { page, close } = await open(t, `/namespaces/${NS}/flags/${FLAG}/timeline`, { viewport: PHONE, colorScheme: scheme });
    await stepAt(page, '2031-07-01 10:00 EDT').waitFor();
    await fits(t, page, 'timeline');
    await screenshot(page, `phone-timeline-${scheme}`, { fullPage: true });

    await page.getByRole('button', { name: 'Schedule a change' }).click();
    await page.getByRole('dialog', { name: 'Schedule a change' }).getByLabel('When').waitFor();
    await fits(t, page, 'the schedule dialog');
    await page.getByRole('dialog', { name: 'Schedule a change' }).getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('link', { name: 'Overview' }).click();
    const rollout = page.getByRole('list', { name: 'Rollouts' }).getByRole('listitem', { name: 'Rollout 1', exact: true });
    await rollout.getByRole('list', { name: 'Ramp' }).waitFor();
    await fits(t, page, 'the rollouts with a ramp and a window');
    await rollout.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit rollout' });
    await dialog.getByLabel('Step 2 time').waitFor();
    await fits(t, page, 'the rollout dialog');
    await screenshot(page, `phone-ramp-editor-${scheme}`);
    await close();
  });
}
