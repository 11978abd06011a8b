/** Waiting in tests for what happens on its own time (timers, background work), never for a fixed sleep. */

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds (at most ~10 s); resolves whether it did. */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return true;
    await delay(50);
  }
  return false;
}
