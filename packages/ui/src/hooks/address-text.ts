/**
 * A text field whose value is kept in the address (`?q=`), without the field waiting for the
 * address: what is typed shows at once and the address follows. Reading the field's value back
 * from the address on every key loses keystrokes when typing fast, because each address update
 * lands a render later than the next key.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** `[text, setText]` for a field whose value the address holds as `fromAddress`; `write` puts a new value there. */
export function useAddressText(fromAddress: string, write: (text: string) => void): [string, (text: string) => void] {
  const [text, setText] = useState(fromAddress);
  /** Values written to the address that it has not shown yet, oldest first: they arrive a render or more late. */
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const own = pending.current.indexOf(fromAddress);
    if (own >= 0) {
      // One of ours arriving (with any written before it): the field is already ahead of it.
      pending.current.splice(0, own + 1);
      return;
    }
    // The address changed by other means (back, forward, a "Clear" button): the field follows it.
    pending.current = [];
    setText(fromAddress);
  }, [fromAddress]);
  const change = useCallback(
    (next: string) => {
      setText(next);
      pending.current.push(next);
      write(next);
    },
    [write],
  );
  return [text, change];
}
