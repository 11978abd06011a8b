/**
 * The time zone preference (Settings → Preferences) in a real Chromium set to America/New_York:
 * times are local by default and name the zone (EST, EDT); once UTC is chosen they say UTC, in a
 * segment's change history, the API tokens table and a date-time constraint; a date-time typed in
 * the constraint dialog is read in the chosen zone. The choice holds across a reload and a second
 * open tab follows it at once. A browser that refuses storage keeps the choice for the page only,
 * a stored value that is no choice means local time, and the page fits a phone in both themes.
 */
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';
import { expect } from '../helpers/ui-expect.js';

const ui = useUiServer(test, { config: { authentication: { required: false, methods: { token: { enabled: true } } } } });

const NS = 'tz';
const SEGMENT = 'launch';
const TOKEN = 'nightly-export';
const ZONE = 'America/New_York';
/** A fixed locale, so that the readable dates ("Nov 23, 2026, 4:00 AM EST") are the same on every machine. */
const BROWSER: PageOptions = { timezoneId: ZONE, locale: 'en-US' };
/** A date-time constraint's value: 04:00 in New York (winter time). */
const SIGNUP_AT = '2026-11-23T09:00:00Z';
/** A token's expiry: 10:03 in New York (summer time). */
const EXPIRES_AT = '2030-07-15T14:03:00Z';

/** What each place shows for the fixed instants, in local time and in UTC. */
const SHOWN = {
  local: { constraint: 'Nov 23, 2026, 4:00 AM EST', expires: 'Jul 15, 2030, 10:03 AM EDT', expiresExact: '2030-07-15 10:03:00 EDT', zoneSelect: ZONE },
  utc: { constraint: 'Nov 23, 2026, 9:00 AM UTC', expires: 'Jul 15, 2030, 2:03 PM UTC', expiresExact: '2030-07-15 14:03:00 UTC', zoneSelect: 'UTC' },
} as const;
type Choice = keyof typeof SHOWN;

test.serial.before('a segment with a date-time constraint, and a token that expires at a fixed time', async (t) => {
  const post = async (path: string, body: unknown) => {
    const res = await ui.api.post(path, body);
    t.is(res.status, 200, `POST ${path}: ${res.text}`);
  };
  await post('/api/v1/namespaces', { key: NS, name: 'Time zones' });
  await post(`/api/v1/namespaces/${NS}/segments`, { key: SEGMENT, name: 'Launch', matchType: 'ALL_MATCH_TYPE' });
  await post(`/api/v1/namespaces/${NS}/segments/${SEGMENT}/constraints`, { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'gte', value: SIGNUP_AT, description: '' });
  await post('/auth/v1/method/token', { name: TOKEN, description: '', expiresAt: EXPIRES_AT });
});

const open = (t: ExecutionContext, path: string, options: PageOptions = BROWSER) => openPage(t, ui.browser, `${ui.server.baseUrl}${path}`, options);

/** Text as a person reads it: the narrow no-break space Chromium puts before AM/PM as a plain one. */
const spaced = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim();

/** `at` to the minute in `timeZone` as the history's hover text should say it, worked out here from Intl's parts. */
function historyTitle(at: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).formatToParts(
    new Date(at),
  );
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

/** When the segment was created, as the service's history stores it. */
async function segmentCreatedAt(t: ExecutionContext): Promise<string> {
  const res = await ui.api.get(`/api/v1/namespaces/${NS}/audit/events?key=${SEGMENT}&limit=50`);
  t.is(res.status, 200, res.text);
  const events = (res.body as { events: Array<{ at: string; resource: string; action: string }> }).events;
  const created = events.find((e) => e.resource === 'segment' && e.action === 'created');
  if (created === undefined) throw new Error(`no creation of the segment in ${res.text}`);
  return created.at;
}

const tokenExpiry = (page: Page) => page.getByRole('row').filter({ hasText: TOKEN }).locator('td[data-label="Expires"] time');

/** The tokens table's expiry of the seeded token, shown and on hover. */
async function checkTokens(page: Page, choice: Choice, how: string): Promise<void> {
  const expiry = tokenExpiry(page);
  await expect(expiry, `${how}: the token's expiry`).toHaveText(SHOWN[choice].expires);
  await expect(expiry, `${how}: the token's expiry to the second on hover`).toHaveAttribute('title', SHOWN[choice].expiresExact);
}

/** Every place the test looks at, reached through the sidebar (no reload, so a choice kept in memory only survives). */
async function checkEverywhere(t: ExecutionContext, page: Page, choice: Choice, createdAt: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const zone = choice === 'utc' ? 'UTC' : ZONE;

  await nav.getByRole('link', { name: 'Segments', exact: true }).click();
  await page.getByRole('link', { name: 'Launch' }).click();
  const value = page.getByRole('row').filter({ hasText: 'signup' }).locator('.value-local');
  await expect(value, `${choice}: the date-time constraint`).toHaveText(SHOWN[choice].constraint);

  // A date-time typed in the dialog is read in the chosen zone (another can still be picked there).
  await page.getByRole('button', { name: 'Add constraint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add constraint' });
  await dialog.getByLabel('Type').selectOption({ label: 'Date-time' });
  await expect(dialog.getByLabel('Time zone'), `${choice}: the dialog's zone`).toHaveValue(SHOWN[choice].zoneSelect);
  await dialog.getByLabel('Value', { exact: true }).fill('2026-12-01T10:00');
  await dialog.getByText(choice === 'utc' ? 'stored as 2026-12-01T10:00:00Z' : 'stored as 2026-12-01T15:00:00Z').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.getByRole('link', { name: 'History' }).click();
  const created = page.getByRole('list', { name: 'Changes' }).getByRole('listitem', { name: 'Created the segment', exact: true }).locator('time');
  const title = historyTitle(createdAt, zone);
  await expect(created, `${choice}: the history's time on hover`).toHaveAttribute('title', title);
  t.regex(title, choice === 'utc' ? / UTC$/ : / E[SD]T$/);

  await nav.getByRole('link', { name: 'API tokens' }).click();
  await checkTokens(page, choice, choice);
}

test.serial('local time by default, UTC once chosen: the history, the tokens table and a date-time constraint say which; a reload and a second tab keep it', async (t) => {
  const createdAt = await segmentCreatedAt(t);
  const { page, context, close } = await open(t, `/namespaces/${NS}/flags`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Preferences' }).waitFor();
  const afterTokens = async () => {
    const links = await nav.getByRole('link').allTextContents();
    return links[links.indexOf('API tokens') + 1];
  };
  await expect.poll(afterTokens, 'Preferences comes after API tokens').toBe('Preferences');

  await nav.getByRole('link', { name: 'Preferences' }).click();
  await page.waitForURL('**/settings/preferences');
  const local = page.getByRole('radio', { name: `Local time (${ZONE})` });
  const utc = page.getByRole('radio', { name: 'UTC', exact: true });
  await local.waitFor();
  await expect(local, 'local time until something else is chosen').toBeChecked();
  await expect(utc).not.toBeChecked();
  await expect.poll(async () => spaced(await page.getByText('Now is').textContent())).toMatch(/^Now is \d{4}-\d\d-\d\d \d\d:\d\d E[SD]T\./);
  await checkEverywhere(t, page, 'local', createdAt);

  // A second tab, open on the tokens page while the choice changes in the first.
  const second = await context.newPage();
  const secondErrors: string[] = [];
  second.on('pageerror', (err) => secondErrors.push(err.message));
  await second.goto(`${ui.server.baseUrl}/settings/tokens`);
  await checkTokens(second, 'local', 'the second tab');

  await nav.getByRole('link', { name: 'Preferences' }).click();
  await utc.check();
  await expect(utc).toBeChecked();
  await expect.poll(async () => spaced(await page.getByText('Now is').textContent()), 'the example follows at once').toMatch(/^Now is \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
  await expect(page.getByText('did not let the UI store the choice'), 'a stored choice says nothing more').toHaveCount(0);
  await checkTokens(second, 'utc', 'the second tab, without a reload');
  await screenshot(second, 'time-zone-tokens-utc');
  await checkEverywhere(t, page, 'utc', createdAt);

  await page.reload();
  await checkTokens(page, 'utc', 'after a reload');
  await page.goto(`${ui.server.baseUrl}/settings/preferences`);
  await utc.waitFor();
  await expect(utc, 'the choice holds across a reload').toBeChecked();
  await screenshot(page, 'time-zone-preferences');

  // Back to local time, from the second tab this time.
  await second.goto(`${ui.server.baseUrl}/settings/preferences`);
  await second.getByRole('radio', { name: `Local time (${ZONE})` }).check();
  await page.goto(`${ui.server.baseUrl}/settings/tokens`);
  await checkTokens(page, 'local', 'the first tab, back to local time');
  t.deepEqual(secondErrors, [], 'the second tab raised no script errors');
  await close();
});

test.serial('a browser that refuses storage keeps the choice for the page only; a stored value that is no choice means local time', async (t) => {
  const { page, context, close } = await open(t, '/settings/preferences');
  // Only this preference is refused: the rest of the UI stores what it stores.
  await context.addInitScript(`(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'ensign.timeZone') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return setItem.call(this, key, value);
    };
  })()`);
  await page.reload();
  const utc = page.getByRole('radio', { name: 'UTC', exact: true });
  await utc.check();
  await expect(utc, 'the choice is taken even so').toBeChecked();
  const notice = page.getByRole('status').filter({ hasText: 'did not let the UI store the choice' });
  await notice.waitFor();
  await expect.poll(async () => spaced(await notice.textContent())).toMatch(/lasts only until this page is reloaded\. To keep it, allow this site to store data/);
  await screenshot(page, 'time-zone-not-stored');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
  await checkTokens(page, 'utc', 'unsaved, in this page');
  await page.reload();
  await checkTokens(page, 'local', 'unsaved, after a reload');
  await close();

  const other = await open(t, '/settings/tokens');
  await other.page.evaluate("localStorage.setItem('ensign.timeZone', 'Mars/Olympus')");
  await other.page.reload();
  await checkTokens(other.page, 'local', 'a stored value that is no choice');
  await other.page.goto(`${ui.server.baseUrl}/settings/preferences`);
  const local = other.page.getByRole('radio', { name: `Local time (${ZONE})` });
  await local.waitFor();
  await expect(local).toBeChecked();
  await other.close();
});

for (const scheme of ['light', 'dark'] as const) {
  test.serial(`on a phone the Preferences page is in the menu and fits the screen (${scheme})`, async (t) => {
    const { page, close } = await open(t, `/namespaces/${NS}/flags`, { ...BROWSER, viewport: { width: 390, height: 844 }, colorScheme: scheme });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Preferences' }).click();
    await page.waitForURL('**/settings/preferences');
    await page.getByRole('radio', { name: 'UTC', exact: true }).check();
    await page.getByText(/^Now is .* UTC\./).waitFor();
    const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>('({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
    t.true(scrollWidth <= innerWidth, `the page is ${scrollWidth}px wide in a ${innerWidth}px window`);
    await screenshot(page, `phone-preferences-${scheme}`, { fullPage: true });
    await close();
  });
}
