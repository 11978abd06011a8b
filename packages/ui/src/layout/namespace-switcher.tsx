/** Picks the namespace; keeps the section (flags, segments, console) when switching. */
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { namespaces } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { paths } from './namespace.js';

export function NamespaceSwitcher({ current }: { current: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { data } = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list });
  const list = data ?? [];
  const known = list.some((n) => n.key === current);

  const switchTo = (ns: string) => {
    const section = location.pathname.match(/^\/namespaces\/[^/]+\/(flags|segments|console)/)?.[1] ?? 'flags';
    const to = section === 'segments' ? paths.segments(ns) : section === 'console' ? paths.console(ns) : paths.flags(ns);
    void navigate(to);
  };

  return (
    <label className="namespace-switcher">
      <span className="visually-hidden">Namespace</span>
      <select value={current} onChange={(e) => switchTo(e.target.value)} aria-label="Namespace">
        {!known && <option value={current}>{current}</option>}
        {list.map((n) => (
          <option key={n.key} value={n.key}>
            {n.name === '' || n.name === n.key ? n.key : `${n.name} (${n.key})`}
          </option>
        ))}
      </select>
    </label>
  );
}
