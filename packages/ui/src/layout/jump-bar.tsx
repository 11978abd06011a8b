/**
 * The jump bar: Ctrl-K or ⌘K (from anywhere, unless another dialog is open) or the top bar's
 * Search button opens a modal search over the namespace's flags and segments, the pages and the
 * namespaces (choosing one keeps the kind of page). The lists come from the cache the pages share
 * (their query keys), and every key filters them in memory: no request per key. Arrows move the
 * selection, Enter opens it; Escape, Ctrl-K again or a click outside close it and the focus goes
 * back where it was. A combobox with `aria-activedescendant` over a listbox of grouped options.
 */
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { flags as flagsApi, namespaces as namespacesApi, segments as segmentsApi } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { shownError } from '../api/user-error.js';
import { sessionNamespaceOf, useSession } from '../auth/session.js';
import { useLock } from '../hooks/permissions.js';
import {
  flattenGroups,
  isJumpShortcut,
  isMoveKey,
  type JumpTarget,
  markMatches,
  moveSelection,
  type NamespaceSection,
  namespaceSection,
  rankTargets,
  shortcutLabel,
} from '../lib/jump-targets.js';
import { messageText } from '../lib/user-messages.js';
import { paths, useNamespace } from './namespace.js';
import './jump-bar.css';

/** How the bar closed: dismissed (the focus goes back, else to the Search button) or by opening something. */
type Closing = 'dismiss' | 'choose';

/** Whether a dialog other than `own` is on screen: then Ctrl-K belongs to it. */
function anotherDialogOpen(own: Element | null): boolean {
  const dialogs = document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]');
  return [...dialogs].some((el) => el !== own && !(own?.contains(el) ?? false) && el.getClientRects().length > 0);
}

const sectionPath = (section: NamespaceSection, ns: string): string =>
  section === 'segments' ? paths.segments(ns) : section === 'console' ? paths.console(ns) : section === 'activity' ? paths.activity(ns) : paths.flags(ns);

/** The pages of the navigation (app.tsx's routes), with the words that also find them. */
function pageTargets(ns: string, tokens: boolean): JumpTarget[] {
  const page = (name: string, path: string, keywords: string[], inNamespace?: string): JumpTarget => ({ kind: 'page', id: name, name, path, keywords, ...(inNamespace === undefined ? {} : { note: `in ${inNamespace}` }) });
  return [
    page('Flags', paths.flags(ns), ['features', 'toggles'], ns),
    page('Segments', paths.segments(ns), ['audiences', 'constraints'], ns),
    page('Console', paths.console(ns), ['evaluate', 'evaluation', 'try a flag'], ns),
    page('Activity', paths.activity(ns), ['history', 'changes', 'audit'], ns),
    page('Change requests', paths.changeRequests(ns), ['review', 'approve', 'drafts', 'promote'], ns),
    page('Namespaces', paths.namespaces(), ['settings']),
    ...(tokens ? [page('API tokens', paths.tokens(), ['settings', 'credentials', 'authentication'])] : []),
    page('Preferences', paths.preferences(), ['settings', 'theme', 'time zone', 'dark', 'light']),
  ];
}

const optionKey = (target: JumpTarget): string => `${target.kind}:${target.id}`;

function Marked({ text, query }: { text: string; query: string }) {
  return (
    <>
      {markMatches(text, query).map((run, i) => (run.mark ? <mark key={i}>{run.text}</mark> : run.text))}
    </>
  );
}

/** The search field and its results; mounted while the bar is open, so each opening starts empty. */
function JumpPanel({ ns, onChoose, onDismiss }: { ns: string; onChoose: (path: string) => void; onDismiss: () => void }) {
  const scoped = sessionNamespaceOf(useSession().state);
  const tokenLock = useLock('token.read');
  const tokens = scoped === undefined && !tokenLock.on;
  // A session held to another namespace must not ask for this one's lists (the service would end it).
  const allowed = scoped === undefined || scoped === ns;
  const { pathname } = useLocation();
  const flags = useQuery({ queryKey: queryKeys.flags(ns), queryFn: () => flagsApi.list(ns), enabled: allowed });
  const segments = useQuery({ queryKey: queryKeys.segments(ns), queryFn: () => segmentsApi.list(ns), enabled: allowed });
  const spaces = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespacesApi.list });
  const [query, setQuery] = useState('');
  /** The chosen option (`optionKey`); none: the first. */
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const baseId = useId();
  const listId = `${baseId}-list`;
  const list = useRef<HTMLDivElement>(null);

  const targets = useMemo<JumpTarget[]>(() => {
    const section = namespaceSection(pathname);
    return [
      ...(flags.data ?? []).map((f): JumpTarget => ({ kind: 'flag', id: f.key, key: f.key, name: f.name || f.key, path: paths.flag(ns, f.key), ...(f.enabled ? {} : { note: 'Disabled' }) })),
      ...(segments.data ?? []).map((s): JumpTarget => ({ kind: 'segment', id: s.key, key: s.key, name: s.name || s.key, path: paths.segment(ns, s.key) })),
      ...pageTargets(ns, tokens),
      ...(spaces.data ?? []).map((n): JumpTarget => ({ kind: 'namespace', id: n.key, key: n.key, name: n.name || n.key, path: sectionPath(section, n.key), ...(n.key === ns ? { note: 'Current' } : {}) })),
    ];
  }, [flags.data, segments.data, spaces.data, ns, tokens, pathname]);
  const groups = useMemo(() => rankTargets(targets, query), [targets, query]);
  const options = useMemo(() => flattenGroups(groups), [groups]);
  const found = options.findIndex((option) => optionKey(option.target) === selected);
  const active = found === -1 ? 0 : found;
  const activeId = options.length === 0 ? undefined : `${baseId}-option-${active}`;

  useEffect(() => {
    const box = list.current;
    if (box === null) return;
    if (active === 0) box.scrollTop = 0;
    else box.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active, options]);

  const onKeyDown = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (isMoveKey(event.key)) {
      event.preventDefault();
      const next = options[moveSelection(active, options.length, event.key)];
      if (next !== undefined) setSelected(optionKey(next.target));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = options[active];
      if (chosen !== undefined) onChoose(chosen.target.path);
    }
  };

  const notes: Array<{ what: string; state: typeof flags | typeof segments }> = allowed
    ? [
        { what: 'Flags', state: flags },
        { what: 'Segments', state: segments },
      ]
    : [];
  const typed = query.trim();
  let index = 0;

  return (
    <div className="jump-panel">
      <div className="jump-search">
        <SearchIcon />
        <input
          type="text"
          role="combobox"
          aria-label="Search for a flag, segment, page or namespace"
          placeholder="Jump to a flag, segment or page…"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="go"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setSelected(undefined);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="icon-button jump-close" aria-label="Close" onClick={onDismiss}>
          ×
        </button>
      </div>
      <div className="jump-results" ref={list}>
        <div role="listbox" id={listId} aria-label="Results">
          {groups.map((group) => (
            <div key={group.kind} role="group" aria-labelledby={`${baseId}-${group.kind}`} className="jump-group">
              <div role="presentation" id={`${baseId}-${group.kind}`} className="jump-group-heading">
                {group.heading}
                {group.total > group.matches.length && (
                  <span className="jump-group-count">
                    {' '}
                    · {group.matches.length} of {group.total}
                  </span>
                )}
              </div>
              {group.matches.map(({ target }) => {
                const i = index++;
                const key = optionKey(target);
                return (
                  <div
                    key={key}
                    id={`${baseId}-option-${i}`}
                    role="option"
                    aria-selected={i === active}
                    className="jump-option"
                    title={target.key !== undefined && target.key !== target.name ? `${target.name} (${target.key})` : target.name}
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseMove={() => {
                      if (i !== active) setSelected(key);
                    }}
                    onClick={() => onChoose(target.path)}
                  >
                    <span className="jump-option-name">
                      <Marked text={target.name} query={query} />
                    </span>
                    {target.key !== undefined && target.key !== target.name && (
                      <span className="jump-option-key mono">
                        <Marked text={target.key} query={query} />
                      </span>
                    )}
                    {target.note !== undefined && <span className="jump-option-note">{target.note}</span>}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        {options.length === 0 && (
          <p className="jump-empty">
            Nothing matches “{typed}”. Try part of a flag or segment key, or the name of a page.
          </p>
        )}
        {notes.map(({ what, state }) =>
          state.isError ? (
            <p key={what} className="jump-note jump-note-error" role="alert">
              <span>
                {what} could not be loaded: {messageText(shownError(state.error) ?? [])}
              </span>
              <button type="button" className="button button-small" onClick={() => void state.refetch()}>
                Try again
              </button>
            </p>
          ) : state.isPending ? (
            <p key={what} className="jump-note">
              Loading {what.toLowerCase()}…
            </p>
          ) : null,
        )}
      </div>
      <p className="visually-hidden" role="status">
        {options.length === 0 ? 'No results' : options.length === 1 ? '1 result' : `${options.length} results`}
      </p>
      <footer className="jump-hints" aria-hidden="true">
        <span>
          <kbd>↑</kbd> <kbd>↓</kbd> to move
        </span>
        <span>
          <kbd>Enter</kbd> to open
        </span>
        <span>
          <kbd>Esc</kbd> to close
        </span>
      </footer>
    </div>
  );
}

function SearchIcon() {
  return (
    <svg className="jump-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <circle cx="7" cy="7" r="4.75" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M10.5 10.5 14 14" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

/** The top bar's Search button and the bar it opens; `onOpen` lets the frame close what the bar covers (the menu drawer). */
export function JumpBar({ onOpen }: { onOpen?: () => void }) {
  const ns = useNamespace();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  /** What had the focus before the bar opened. */
  const opener = useRef<Element | null>(null);
  const closing = useRef<Closing>('dismiss');
  const wasOpen = useRef(false);
  /** Whether a press began on the backdrop (a drag from the field that ends outside is not a click outside). */
  const pressedOutside = useRef(false);
  const shortcut = useMemo(() => shortcutLabel(navigator.platform), []);

  const show = useCallback(() => {
    opener.current = document.activeElement;
    onOpen?.();
    setOpen(true);
  }, [onOpen]);
  const hide = useCallback((how: Closing) => {
    closing.current = how;
    setOpen(false);
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.repeat || event.defaultPrevented || !isJumpShortcut(event)) return;
      const own = dialog.current;
      if (own?.open === true) {
        event.preventDefault();
        hide('dismiss');
        return;
      }
      if (anotherDialogOpen(own)) return;
      event.preventDefault();
      show();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [show, hide]);

  useEffect(() => {
    const el = dialog.current;
    if (el === null) return;
    if (open && !el.open) {
      el.showModal();
      el.querySelector<HTMLInputElement>('input')?.focus();
    }
    if (!open && wasOpen.current) {
      if (el.open) el.close();
      const back = opener.current;
      opener.current = null;
      if (back instanceof HTMLElement && back !== document.body && back.isConnected) back.focus({ preventScroll: true });
      if (closing.current === 'dismiss' && (document.activeElement === null || document.activeElement === document.body)) button.current?.focus();
    }
    wasOpen.current = open;
  }, [open]);

  const onBackdrop = (event: ReactMouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget && pressedOutside.current) hide('dismiss');
    pressedOutside.current = false;
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="jump-button"
        aria-label="Search"
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K"
        title={`Search flags, segments and pages (${shortcut})`}
        onClick={show}
      >
        <SearchIcon />
        <span className="jump-button-text">Search…</span>
        <kbd className="jump-button-key">{shortcut}</kbd>
      </button>
      <dialog
        ref={dialog}
        className="jump-dialog"
        aria-label="Search"
        onCancel={(event) => {
          event.preventDefault();
          hide('dismiss');
        }}
        // Closed some other way (the browser's own Escape handling): keep the state in step. The event
        // comes a task after the close, so the bar may be open again by then: a late one is ignored.
        onClose={(event) => {
          if (wasOpen.current && !event.currentTarget.open) hide('dismiss');
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
          event.preventDefault();
          event.stopPropagation();
          hide('dismiss');
        }}
        onMouseDown={(event) => {
          pressedOutside.current = event.target === event.currentTarget;
        }}
        onClick={onBackdrop}
      >
        {open && (
          <JumpPanel
            ns={ns}
            onDismiss={() => hide('dismiss')}
            onChoose={(path) => {
              hide('choose');
              void navigate(path);
            }}
          />
        )}
      </dialog>
    </>
  );
}
