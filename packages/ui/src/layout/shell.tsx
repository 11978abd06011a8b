/**
 * The frame around every page: top bar (namespace, the Ctrl-K search, theme, caller), navigation (on a phone a drawer
 * over a backdrop, with the theme switch), the read-only banner when the server refuses changes,
 * and the page. Pages wait for `/meta/info` (asked once per session) and for what the session may
 * do, so neither a read-only server nor a session without the permission ever shows a control that
 * would be refused, not even for a moment.
 */
import { useCallback, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { callerName, sessionNamespaceOf, useSession } from '../auth/session.js';
import { DraftNotices } from '../components/draft-notices.js';
import { Loading } from '../components/status.js';
import { useLock, usePermissionsQuery, useRefreshPermissionsOn } from '../hooks/permissions.js';
import { useServerStorage } from '../hooks/read-only.js';
import { JumpBar } from './jump-bar.js';
import { useMenuDrawer } from './menu-drawer.js';
import { NamespaceSwitcher } from './namespace-switcher.js';
import { paths, useNamespace } from './namespace.js';
import { useNarrowScreen } from './narrow-screen.js';
import { ReadOnlyBanner } from './read-only-banner.js';
import { ThemeSelect } from './theme-select.js';

export function Shell() {
  const ns = useNamespace();
  const session = useSession();
  const narrow = useNarrowScreen();
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const drawer = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  useMenuDrawer(menuOpen && narrow, closeMenu, drawer, menuButton);
  const location = useLocation();
  const storage = useServerStorage();
  const permissions = usePermissionsQuery();
  useRefreshPermissionsOn(ns);
  const tokens = useLock('token.read');
  const name = session.state.kind === 'signed-in' ? callerName(session.state.authentication) : undefined;
  const scoped = sessionNamespaceOf(session.state);
  const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'nav-link active' : 'nav-link');

  return (
    <div className="app" data-read-only={storage.data?.readOnly === true ? '' : undefined}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button ref={menuButton} type="button" className="icon-button menu-button" aria-label="Menu" aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen((o) => !o)}>
          ☰
        </button>
        <NavLink to={paths.flags(ns)} className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          <span>Ensign</span>
        </NavLink>
        <NamespaceSwitcher current={ns} />
        <JumpBar onOpen={closeMenu} />
        <div className="topbar-spacer" />
        {!narrow && <ThemeSelect />}
        {session.state.kind === 'signed-in' && (
          <div className="caller">
            <span className="caller-name" title={scoped === undefined ? session.state.authentication.method : `${name ?? ''}: limited to the namespace ${scoped}`}>
              {name}
              {scoped !== undefined && <span className="caller-scope"> · {scoped} only</span>}
            </span>
            <button type="button" className="button button-small" onClick={() => void session.signOut()}>
              Sign out
            </button>
          </div>
        )}
      </header>
      {menuOpen && narrow && <div className="drawer-backdrop" aria-hidden="true" onClick={closeMenu} />}
      <nav
        ref={drawer}
        id="sidebar"
        className={menuOpen ? 'sidebar open' : 'sidebar'}
        aria-label="Main"
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('a') !== null) closeMenu();
        }}
      >
        <p className="nav-heading" title={`Namespace ${ns}`}>
          Namespace {ns}
        </p>
        <NavLink to={paths.flags(ns)} className={navClass}>
          Flags
        </NavLink>
        <NavLink to={paths.segments(ns)} className={navClass}>
          Segments
        </NavLink>
        <NavLink to={paths.console(ns)} className={navClass}>
          Console
        </NavLink>
        <NavLink to={paths.activity(ns)} className={navClass}>
          Activity
        </NavLink>
        <NavLink to={paths.changeRequests(ns)} className={navClass}>
          Change requests
        </NavLink>
        <p className="nav-heading">Settings</p>
        <NavLink to={paths.namespaces()} className={navClass}>
          Namespaces
        </NavLink>
        {scoped === undefined && !tokens.on && (
          <NavLink to={paths.tokens()} className={navClass}>
            API tokens
          </NavLink>
        )}
        <NavLink to={paths.preferences()} className={navClass}>
          Preferences
        </NavLink>
        {narrow && (
          <label className="drawer-theme">
            <span className="nav-heading">Theme</span>
            <ThemeSelect />
          </label>
        )}
      </nav>
      <DraftNotices />
      <main id="main" className="content" key={location.pathname.split('/').slice(0, 4).join('/')}>
        {storage.data?.readOnly === true && <ReadOnlyBanner storage={storage.data} />}
        {storage.isPending || permissions.isPending ? <Loading label="Connecting…" /> : <Outlet />}
      </main>
    </div>
  );
}
