/**
 * Picks the namespace; keeps the section (flags, segments, console) when switching. The list names
 * each namespace whole; a name too long for the bar ends in an ellipsis, whole in the tooltip.
 */
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { namespaces } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { namespaceLabel as label } from '../lib/namespace-label.js';
import { paths } from './namespace.js';


export function NamespaceSwitcher({ current }: { current: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { data } = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list });
  const list = data ?? [];
  const entry = list.find((n) => n.key === current);

  const switchTo = (ns: string) => {
    const section = location.pathname.match(/^\/namespaces\/[^/]+\/(flags|segments|console)/)?.[1] ?? 'flags';
    const to = section === 'segments' ? paths.segments(ns) : section === 'console' ? paths.console(ns) : paths.flags(ns);
    void navigate(to);
  };

  return (
    <label className="namespace-switcher">
      <span className="visually-hidden">Namespace</span>
      <select value={current} onChange={(e) => switchTo(e.target.value)} aria-label="Namespace" title={entry === undefined ? current : label(entry)}>
        {entry === undefined && <option value={current}>{current}</option>}
        {list.map((n) => (
          <option key={n.key} value={n.key}>
            {label(n)}
          </option>
        ))}
      </select>
    </label>
  );
}
