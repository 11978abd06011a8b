/**
 * Short notices after an action ("Flag saved"), announced to screen readers, gone after a few
 * seconds. While they show, the page gets room below its last card (`--toast-space`), and a page
 * scrolled to its end stays there, so no toast covers the last buttons.
 */
import { createContext, type ReactNode, useCallback, useContext, useLayoutEffect, useMemo, useRef, useState } from 'react';

export type ToastKind = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

type Show = (message: string, kind?: ToastKind) => void;
const ToastContext = createContext<Show>(() => undefined);

const LIFETIME_MS = { success: 3500, info: 3500, error: 8000 } as const;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback<Show>(
    (message, kind = 'success') => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-3), { id, kind, message }]);
      setTimeout(() => dismiss(id), LIFETIME_MS[kind]);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  const stack = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const root = document.documentElement;
    const atEnd = window.scrollY + window.innerHeight >= root.scrollHeight - 2;
    const height = toasts.length === 0 ? 0 : (stack.current?.getBoundingClientRect().height ?? 0) + 24;
    root.style.setProperty('--toast-space', `${Math.ceil(height)}px`);
    if (atEnd && height > 0) window.scrollTo({ top: root.scrollHeight, behavior: 'instant' });
  }, [toasts]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div ref={stack} className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.kind}`}>
            <span>{t.message}</span>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** `toast('Saved')`, `toast('Could not delete', 'error')`. */
export const useToast = (): Show => useContext(ToastContext);
