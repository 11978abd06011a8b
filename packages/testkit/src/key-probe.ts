/**
 * A probe on a text field in a browser page, for the tests and the benchmark that type into the
 * UI's search fields. For each key it records the time from the first moment a page script sees its
 * `keydown` (a capture listener on the window) to the end of its `input` event, seen from a
 * document listener after React's root listener and the microtask that renders the change (a typed
 * key renders synchronously): every handler of the key and the render it causes. It also records
 * how long the key waited to reach the page (from the event's timeStamp) and the field's value then.
 */

/** What the probe saw of one key. */
export interface KeyTiming {
  /** From the key reaching the page to the field showing it, rendered. */
  ms: number;
  /** How long the key waited before the page saw it (the browser, the DevTools protocol, a busy main thread). */
  waitedMs: number;
  /** The field's value once the key was handled. */
  value: string;
}

/**
 * Puts the probe on the field `el` (emptying what it collected), to be handed to Playwright's
 * `locator.evaluate`: it runs inside the page, so it uses nothing from outside its own body (and
 * the element and its window are the page's, untyped here).
 */
export function installKeyProbe(el: any): void {
  const view = el.ownerDocument.defaultView;
  if (view.__keyProbe === undefined) {
    const probe: { starts: Array<{ at: number; waited: number }>; keys: Array<{ ms: number; waitedMs: number; value: string }> } = { starts: [], keys: [] };
    view.__keyProbe = probe;
    view.addEventListener(
      'keydown',
      (event: { target: unknown; timeStamp: number }) => {
        if (event.target !== el) return;
        const at = view.performance.now();
        probe.starts.push({ at, waited: at - event.timeStamp });
      },
      true,
    );
    el.ownerDocument.addEventListener('input', (event: { target: unknown }) => {
      if (event.target !== el) return;
      const start = probe.starts.shift();
      queueMicrotask(() => {
        if (start !== undefined) probe.keys.push({ ms: view.performance.now() - start.at, waitedMs: start.waited, value: el.value });
      });
    });
  }
  view.__keyProbe.starts = [];
  view.__keyProbe.keys = [];
}

/** A page expression: the keys the probe has seen since it was (re)installed. */
export const KEY_PROBE_KEYS = 'window.__keyProbe.keys';
