/**
 * A text field whose value is kept in the address (`?q=`), without the field waiting for the
 * address: what is typed shows at once and the address follows once typing pauses. Reading the
 * field's value back from the address on every key loses keystrokes when typing fast, because each
 * address update lands a render later than the next key; and writing the address on every key
 * costs more than a key may take (a `history.replaceState` and a render of the whole route each,
 * which Chromium also throttles past a few hundred in ten seconds).
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** How long the address waits for the typing to pause before it follows the field. */
export const ADDRESS_FOLLOW_MS = 250;

/**
 * `[text, setText]` for a field whose value the address holds as `fromAddress`; `write` puts a new
 * value there, `ADDRESS_FOLLOW_MS` after the last key. Leaving the page drops a value not written
 * yet (writing it then would change the next page's address).
 */
export function useAddressText(fromAddress: string, write: (text: string) => void): [string, (text: string) => void] {
  const [text, setText] = useState(fromAddress);
  /** Values written to the address that it has not shown yet, oldest first: they arrive a render or more late. */
  const pending = useRef<string[]>([]);
  /** The write waiting for the typing to pause. */
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The latest `write`, which knows the rest of the address as it is when the timer fires. */
  const latestWrite = useRef(write);
  useEffect(() => {
    latestWrite.current = write;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    const own = pending.current.indexOf(fromAddress);
    if (own >= 0) {
      // One of ours arriving (with any written before it): the field is already ahead of it.
      pending.current.splice(0, own + 1);
      return;
    }
    // The address changed by other means (back, forward, a "Clear" button): the field follows it, and a write still waiting would undo it.
    pending.current = [];
    clearTimeout(timer.current);
    timer.current = undefined;
    setText(fromAddress);
  }, [fromAddress]);
  const change = useCallback((next: string) => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      pending.current.push(next);
      latestWrite.current(next);
    }, ADDRESS_FOLLOW_MS);
  }, []);
  return [text, change];
}
