/** Loading, empty and failed states, the same on every page. */
import type { ReactNode } from 'react';
import { ApiError } from '../api/client.js';

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

/** An error that belongs to no field: what the service said, or that it could not be reached. */
export function ErrorBanner({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error === null || error === undefined) return null;
  const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  return (
    <div className="error-banner" role="alert">
      <span>{message}</span>
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
