/**
 * Playwright's web-first assertions for the UI tests, which run under ava rather than Playwright's
 * own runner: `expect(locator).toHaveText(…)` and the like read the page again until what they
 * check holds, and `expect.poll(read)` does the same for a value read some other way. A page that
 * lags behind the action before it (a loaded CI machine) is waited for instead of failing the test;
 * a check that never holds fails with the last value read.
 */
import { expect as playwrightExpect } from '@playwright/test';
import { ACTION_TIMEOUT_MS } from './ui-browser.js';

/** As long as a page's actions may take. */
export const expect = playwrightExpect.configure({ timeout: ACTION_TIMEOUT_MS });
