/**
 * The longest keys (255 characters) and 500-character names on every resource, on every page, in
 * a real Chromium at 1280 px in light and on a phone (390×844) in dark: nothing scrolls sideways,
 * neither the page nor a card, table or main region; the column headings are whole and on screen;
 * a list row's name takes at most two lines, whole in its tooltip; a key breaks only after its
 * `_`, `-` or `.`, and where it is cut a tooltip or its copy button holds it whole; no select cuts
 * its choice without a tooltip.
 */
import { eventually } from '@ensign/testkit';
import test from 'ava';
import type { Locator, Page } from 'playwright-core';
import { longTextProblems } from '../helpers/long-text-layout.js';
import { BOOLEAN_FLAG, FLAG, KEYS, MEDIUM_FLAG, NAMES, NS, PROPERTY, seedLongText, SEGMENT, VARIANT } from '../helpers/long-text-seed.js';
import { openPage, type PageOptions, screenshot, useUiServer } from '../helpers/ui-browser.js';

const ui = useUiServer(test, { config: { authentication: { required: false, methods: { token: { enabled: true } } }, analytics: { buffer: { flush_period: '1s' } } } });

const WIDTHS: Array<{ name: string; options: PageOptions }> = [
  { name: '1280 px, light', options: { viewport: { width: 1280, height: 800 }, colorScheme: 'light' } },
  { name: 'phone, dark', options: { viewport: { width: 390, height: 844 }, colorScheme: 'dark' } },
];

let changeRequest = '';
test.serial.before('a namespace whose keys and names are as long as the API takes, on every resource', async () => {
  ({ changeRequest } = await seedLongText(ui.api));
});

/** A page, what shows once its data is there, and what a person does on it first. */
interface LongTextPage {
  name: string;
  path: () => string;
  ready: (page: Page) => Locator;
  act?: (page: Page) => Promise<void>;
}

const ns = `/namespaces/${NS}`;

/** A Flipt document of a flag and a segment with the longest keys, to preview importing. */
const LONG_DOCUMENT = JSON.stringify({
  flags: [{ key: FLAG, name: NAMES.flag, type: 'VARIANT_FLAG_TYPE', enabled: true, variants: [{ key: VARIANT, name: NAMES.variant }] }],
  segments: [{ key: SEGMENT, name: NAMES.segment, match_type: 'ALL_MATCH_TYPE' }],
});
const PAGES: LongTextPage[] = [
  { name: 'flags', path: () => `${ns}/flags`, ready: (p) => p.getByRole('link', { name: FLAG }) },
  { name: 'flag', path: () => `${ns}/flags/${FLAG}`, ready: (p) => p.getByRole('region', { name: 'Prerequisites' }).getByRole('link').first() },
  { name: 'boolean-flag', path: () => `${ns}/flags/${BOOLEAN_FLAG}`, ready: (p) => p.getByRole('list', { name: 'Rollouts' }).getByRole('listitem').nth(1) },
  { name: 'flag-timeline', path: () => `${ns}/flags/${FLAG}/timeline`, ready: (p) => p.getByRole('list', { name: 'Timeline' }).getByRole('listitem').first() },
  { name: 'flag-usage', path: () => `${ns}/flags/${FLAG}/usage`, ready: (p) => p.locator('main .card').first() },
  { name: 'flag-history', path: () => `${ns}/flags/${FLAG}/history`, ready: (p) => p.getByRole('list', { name: 'Changes' }) },
  { name: 'segments', path: () => `${ns}/segments`, ready: (p) => p.getByRole('link', { name: NAMES.segment }) },
  { name: 'segment', path: () => `${ns}/segments/${SEGMENT}`, ready: (p) => p.getByText(PROPERTY).first() },
  { name: 'segment-history', path: () => `${ns}/segments/${SEGMENT}/history`, ready: (p) => p.getByRole('list', { name: 'Changes' }) },
  {
    name: 'console',
    path: () => `${ns}/console?flag=${FLAG}`,
    ready: (p) => p.getByRole('region', { name: 'Result' }).getByText('round trip'),
    act: async (p) => {
      await p.getByLabel('Entity ID').fill(PROPERTY);
      await p.getByLabel('Context key 1').fill(PROPERTY);
      await p.getByLabel('Context value 1').fill(VARIANT);
      await p.getByRole('button', { name: 'Evaluate' }).click();
    },
  },
  { name: 'activity', path: () => `${ns}/activity`, ready: (p) => p.getByRole('list', { name: 'Changes' }) },
  { name: 'change-requests', path: () => `${ns}/change-requests`, ready: (p) => p.getByRole('list', { name: 'Change requests' }).getByRole('link').first() },
  { name: 'change-request', path: () => `${ns}/change-requests/${changeRequest}`, ready: (p) => p.getByRole('heading', { name: NAMES.changeRequest, level: 1 }) },
  {
    name: 'variant-attachment',
    path: () => `${ns}/flags/${FLAG}`,
    ready: (p) => p.locator('.attachment-cell pre'),
    act: async (p) => p.locator('.attachment-cell summary').click(),
  },
  {
    name: 'copy-flag-dialog',
    path: () => `${ns}/flags/${FLAG}`,
    ready: (p) => p.getByRole('dialog').getByText('in another namespace', { exact: false }),
    act: async (p) => p.getByRole('button', { name: 'Copy to namespace…' }).click(),
  },
  {
    name: 'copy-segment-dialog',
    path: () => `${ns}/segments/${SEGMENT}`,
    ready: (p) => p.getByRole('dialog').getByText('in another namespace', { exact: false }),
    act: async (p) => p.getByRole('button', { name: 'Copy to namespace…' }).click(),
  },
  {
    name: 'prerequisite-dialog',
    path: () => `${ns}/flags/${BOOLEAN_FLAG}`,
    ready: (p) => p.getByRole('dialog').getByRole('checkbox').first(),
    act: async (p) => {
      await p.getByRole('button', { name: 'Add prerequisite' }).click();
      const dialog = p.getByRole('dialog');
      await dialog.getByLabel('Flag', { exact: true }).selectOption(MEDIUM_FLAG);
      await dialog.getByRole('radio', { name: 'Serves one of these variants' }).check();
    },
  },
  {
    name: 'promote-dialog',
    path: () => `${ns}/change-requests`,
    ready: (p) => p.getByRole('region', { name: 'Promotion preview' }).getByRole('list', { name: 'Preview' }).getByRole('listitem').first(),
    act: async (p) => {
      await p.getByRole('button', { name: 'Promote to…' }).click();
      const dialog = p.getByRole('dialog');
      await dialog.getByLabel('Target namespace').selectOption('default');
      await dialog.getByRole('radio', { name: 'Only the flags and segments chosen' }).check();
      // The flag with what it needs in the target: its prerequisite and its rule's segment.
      for (const key of [FLAG, MEDIUM_FLAG, SEGMENT]) await dialog.getByRole('checkbox', { name: key, exact: true }).check();
    },
  },
  {
    name: 'import-preview',
    path: () => '/settings/namespaces',
    ready: (p) => p.getByRole('dialog').getByRole('region', { name: 'Preview' }).getByText(FLAG),
    act: async (p) => {
      await p.getByRole('button', { name: 'Import into namespace default' }).click();
      const dialog = p.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Document' }).fill(LONG_DOCUMENT);
      await dialog.getByRole('button', { name: 'Preview' }).click();
    },
  },
  { name: 'namespaces', path: () => '/settings/namespaces', ready: (p) => p.locator('main').getByText(NS, { exact: true }) },
  { name: 'tokens', path: () => '/settings/tokens', ready: (p) => p.locator('main').getByText(NAMES.token, { exact: true }) },
];

const NAME_LIST = Object.values(NAMES);

/** The page's problems with long text once they are gone, or the last ones seen after retrying. */
async function settledProblems(page: Page): Promise<string[]> {
  let problems: string[] = [];
  await eventually(async () => {
    problems = await page.evaluate(longTextProblems, { keys: KEYS, names: NAME_LIST });
    if ((await page.locator('main .loading').count()) > 0) problems.push('the page is still loading');
    return problems.length === 0;
  });
  return problems;
}

for (const width of WIDTHS) {
  for (const shown of PAGES) {
    test.serial(`the ${shown.name} page keeps the longest keys and names within the screen (${width.name})`, async (t) => {
      const { page, close } = await openPage(t, ui.browser, `${ui.server.baseUrl}${shown.path()}`, width.options);
      await shown.act?.(page);
      await shown.ready(page).waitFor();
      t.deepEqual(await settledProblems(page), []);
      await screenshot(page, `long-text-${shown.name}-${width.options.colorScheme}`, { fullPage: true });
      await close();
    });
  }
}
