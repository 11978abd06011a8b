/** Signing a test's browser page in as the sign-in screen does: a pasted token traded for a session cookie. */
import type { Page } from 'playwright-core';

/**
 * Opens a session for `token` from `page` (already on the UI's origin), so the next load is signed
 * in, in this page and in every other page of its browser context. Resolves the service's status.
 */
export async function signInWithToken(page: Page, token: string): Promise<number> {
  return page.evaluate(async (clientToken) => {
    const res = await fetch('/auth/v1/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ clientToken }) });
    return res.status;
  }, token);
}
