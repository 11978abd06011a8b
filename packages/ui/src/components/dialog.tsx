/**
 * A modal dialog on the native `<dialog>` element: focus moves into it (to the element marked
 * `data-autofocus`, else the first field) and stays there, Escape
 * closes it, and focus returns to what opened it. Forms inside submit with Enter; a submit that
 * leaves fields marked invalid moves focus to the first of them.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom; with `onSubmit` the body is a form and a submit button belongs here. */
  footer?: ReactNode;
  onSubmit?: () => void;
  /** Wider dialogs for editors (attachments, distributions). */
  wide?: boolean;
}

export function Dialog({ open, title, onClose, children, footer, onSubmit, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React's autoFocus runs while the dialog is still closed: move focus once it is shown.
      const target =
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('.dialog-body :is(input, select, textarea):not([readonly], [disabled], [type="hidden"])');
      target?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
    // After React has shown the problems the submit found.
    requestAnimationFrame(() => ref.current?.querySelector<HTMLElement>('.dialog-body [aria-invalid="true"]')?.focus());
  };

  const body = (
    <>
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {footer !== undefined && <footer className="dialog-footer">{footer}</footer>}
    </>
  );

  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (onSubmit === undefined ? body : <form onSubmit={submit} noValidate>{body}</form>)}
    </dialog>
  );
}

export interface DialogButtonsProps {
  onCancel: () => void;
  /** The submit button's text ("Create flag"). */
  label: string;
  /** While the save is under way: the submit button says `busyLabel` ("Saving…"). */
  busy: boolean;
  busyLabel: string;
  /** When the form cannot be submitted; while `busy` by default. */
  disabled?: boolean;
}

/** Cancel and the submit button, the footer of a dialog that is a form. */
export function DialogButtons({ onCancel, label, busy, busyLabel, disabled = busy }: DialogButtonsProps) {
  return (
    <>
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="button button-primary" disabled={disabled}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}
