/**
 * In an editor of rows of inputs, moves the focus to a row's input once React has rendered the
 * change (the row just added, or the neighbour of the one removed).
 */
import { useEffect, useRef, useState } from 'react';

export function useRowFocus() {
  const inputs = useRef<Array<HTMLInputElement | null>>([]);
  const [focus, setFocus] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (focus === undefined) return;
    inputs.current[focus]?.focus();
    setFocus(undefined);
  }, [focus]);
  return {
    /** The `ref` of the input of row `index`. */
    ref: (index: number) => (el: HTMLInputElement | null) => {
      inputs.current[index] = el;
    },
    /** Focuses the input of row `index` after the next render. */
    focusLater: (index: number) => setFocus(index),
  };
}
