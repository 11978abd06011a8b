/**
 * The navigation as a drawer on a phone: while open, the focus moves into it and Tab cycles inside
 * it; Escape closes it, and the focus goes back to the button that opened it.
 */
import { type RefObject, useEffect } from 'react';

const FOCUSABLE = 'a[href], button:not(:disabled), select:not(:disabled), input:not(:disabled)';

export function useMenuDrawer(open: boolean, close: () => void, drawer: RefObject<HTMLElement | null>, opener: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const panel = drawer.current;
    if (!open || panel === null) return;
    const focusable = () => [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
    (panel.querySelector<HTMLElement>('a.active') ?? focusable()[0])?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        close();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusable();
      const first = items[0];
      const last = items[items.length - 1];
      if (first === undefined || last === undefined) return;
      const inside = panel.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    const button = opener.current;
    return () => {
      document.removeEventListener('keydown', onKey);
      if (panel.contains(document.activeElement) || document.activeElement === document.body) button?.focus();
    };
  }, [open, close, drawer, opener]);
}
