/**
 * Which item an add/edit dialog is open for (undefined: a new one). `key` changes at each opening,
 * so a dialog given it as its React key starts afresh every time.
 */
import { useState } from 'react';

export interface EditDialog<T> {
  open: boolean;
  key: number;
  item: T | undefined;
  /** Opens the dialog on `item`, or on a new one. */
  show: (item: T | undefined) => void;
  close: () => void;
}

export function useEditDialog<T>(): EditDialog<T> {
  const [state, setState] = useState<{ open: boolean; key: number; item: T | undefined }>({ open: false, key: 0, item: undefined });
  return {
    ...state,
    show: (item) => setState((d) => ({ open: true, key: d.key + 1, item })),
    close: () => setState((d) => ({ ...d, open: false })),
  };
}
