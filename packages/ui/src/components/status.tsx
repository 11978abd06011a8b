/** Loading, empty and failed states, the same on every page. */
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { shownError } from '../api/user-error.js';
import { paths } from '../layout/namespace.js';
import type { MessageTarget, UserMessage } from '../lib/user-messages.js';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <h3>{title}</h3>
      {children !== undefined && <p>{children}</p>}
      {action}
    </div>
  );
}

const pathOf = (to: MessageTarget): string => (to.kind === 'flags' ? paths.flags(to.ns) : to.kind === 'flag' ? paths.flag(to.ns, to.key) : paths.segment(to.ns, to.key));

/** A message with its links to the resources it names. */
export function MessageText({ message }: { message: UserMessage }) {
  return (
    <>
      {message.map((part, i) => (
        <Fragment key={i}>{typeof part === 'string' ? part : <Link to={pathOf(part.to)}>{part.text}</Link>}</Fragment>
      ))}
    </>
  );
}

/** An error that belongs to no field: what the service said (in the UI's words), or that it could not be reached. */
export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = shownError(error);
  if (message === undefined) return null;
  return (
    <div className="error-banner" role="alert">
      <span>
        <MessageText message={message} />
      </span>
      {onRetry !== undefined && (
        <button type="button" className="button button-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** A 404 page for a resource that does not exist (any more). */
export function NotFound({ what, back }: { what: string; back?: ReactNode }) {
  return (
    <EmptyState title={`${what} not found`}>
      It may have been deleted or renamed. {back}
    </EmptyState>
  );
}
