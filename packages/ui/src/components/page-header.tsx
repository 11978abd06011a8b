/** The title row of a page: title, a line about it, and its actions on the right. */
import type { ReactNode } from 'react';

export function PageHeader({ title, subtitle, actions, children }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  return (
    <div className="page-header">
      <div className="page-header-text">
        <h1>{title}</h1>
        {subtitle !== undefined && <p className="page-subtitle">{subtitle}</p>}
        {children}
      </div>
      {actions !== undefined && <div className="page-actions">{actions}</div>}
    </div>
  );
}
