/** The sections of a page as links under its header ("Overview", "History"): each its own address, the current one marked. */
import { NavLink } from 'react-router';

export interface PageTab {
  label: string;
  to: string;
}

export function PageTabs({ label, tabs }: { label: string; tabs: readonly PageTab[] }) {
  return (
    <nav className="page-tabs" aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end className={({ isActive }) => (isActive ? 'page-tab active' : 'page-tab')}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
