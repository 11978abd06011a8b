/** What a page of the UI offers: its controls that can be used, and why the others cannot. */
import type { Locator, Page } from 'playwright-core';

/**
 * What the page's main part offers that is not disabled: buttons, fields that can be typed in,
 * selects and draggable handles, by their label (a read-only banner left out).
 */
export const enabledControls = (page: Page): Promise<string[]> =>
  page.evaluate<string[]>(`[...document.querySelectorAll('main :is(button, input, select, textarea, [draggable="true"])')]
    .filter((el) => !el.closest('.read-only-banner') && !el.disabled && !el.readOnly)
    .map((el) => el.getAttribute('aria-label') ?? (el.textContent.trim() || el.tagName.toLowerCase()))`);

/**
 * Every control of the main part that is disabled or read-only, with the reason it gives (its own
 * tooltip or that of what holds it, as the enabled switch's label): `label: reason`.
 */
export const lockedControls = (page: Page): Promise<string[]> =>
  page.evaluate<string[]>(`[...document.querySelectorAll('main :is(button, input, select, textarea)')]
    .filter((el) => el.disabled || el.readOnly)
    .map((el) => {
      const label = el.getAttribute('aria-label') ?? (el.labels?.[0]?.textContent.trim() || el.textContent.trim() || el.tagName.toLowerCase());
      return label + ': ' + (el.title || el.closest('[title]')?.title || '(no reason)');
    })`);

/** Waits until `locator` is shown disabled and resolves the reason it gives (its tooltip). */
export async function lockReason(locator: Locator): Promise<string | null> {
  await locator.and(locator.page().locator(':disabled')).waitFor();
  return locator.getAttribute('title');
}
