/**
 * A control whose value the address holds (a checkbox, a select) that shows a new choice at once:
 * the address updates a render or more later (the router updates it in a transition), and a
 * controlled control would show the old value until then.
 */
import { useCallback, useEffect, useState } from 'react';

/** `[value, choose]` for a control whose value the address holds as `fromAddress`; `write` puts a new value there. */
export function useAddressChoice<T>(fromAddress: T, write: (value: T) => void): [T, (value: T) => void] {
  const [value, setValue] = useState(fromAddress);
  // The address changed by other means (back, forward, a "Clear" button) or caught up: the control follows it.
  useEffect(() => setValue(fromAddress), [fromAddress]);
  const choose = useCallback(
    (next: T) => {
      setValue(next);
      write(next);
    },
    [write],
  );
  return [value, choose];
}
