/**
 * Asks before anything destructive: `if (await confirm({title, message, action: 'Delete'})) …`.
 * The dialog's default button is Cancel, so Enter never deletes by accident.
 */
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { Dialog } from './dialog.js';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  /** The label of the confirming button, e.g. "Delete flag". */
  action: string;
  /** Styles the confirming button as dangerous (the default). */
  danger?: boolean;
}

type Ask = (options: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<Ask>(async () => false);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<ConfirmOptions | undefined>(undefined);
  const resolver = useRef<((answer: boolean) => void) | undefined>(undefined);

  const ask = useCallback<Ask>(
    (options) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setPending(options);
      }),
    [],
  );
  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = undefined;
    setPending(undefined);
  };

  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      <Dialog
        open={pending !== undefined}
        title={pending?.title ?? ''}
        onClose={() => answer(false)}
        footer={
          <>
            <button type="button" className="button" autoFocus data-autofocus onClick={() => answer(false)}>
              Cancel
            </button>
            <button type="button" className={pending?.danger === false ? 'button button-primary' : 'button button-danger'} onClick={() => answer(true)}>
              {pending?.action}
            </button>
          </>
        }
      >
        <div className="confirm-message">{pending?.message}</div>
      </Dialog>
    </ConfirmContext.Provider>
  );
}

export const useConfirm = (): Ask => useContext(ConfirmContext);
