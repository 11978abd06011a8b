/** Search, type and state filters and the order of the flags list; `children` adds controls after them. */
import type { ReactNode } from 'react';
import { FLAG_SORTS, type EnabledFilter, type FlagQuery, type FlagSort, type TypeFilter } from '../../lib/flag-list.js';

export function FlagsToolbar({ query, onChange, children }: { query: FlagQuery; onChange: (changes: Partial<FlagQuery>) => void; children?: ReactNode }) {
  return (
    <div className="toolbar flags-toolbar" role="search">
      <input
        type="search"
        className="grow"
        aria-label="Search flags"
        placeholder="Search key, name or description"
        value={query.search}
        onChange={(e) => onChange({ search: e.target.value })}
      />
      <select aria-label="Type" value={query.type} onChange={(e) => onChange({ type: e.target.value as TypeFilter })}>
        <option value="all">All types</option>
        <option value="VARIANT_FLAG_TYPE">Variant</option>
        <option value="BOOLEAN_FLAG_TYPE">Boolean</option>
      </select>
      <select aria-label="State" value={query.enabled} onChange={(e) => onChange({ enabled: e.target.value as EnabledFilter })}>
        <option value="all">Enabled or disabled</option>
        <option value="enabled">Enabled</option>
        <option value="disabled">Disabled</option>
      </select>
      <select aria-label="Sort" value={query.sort} onChange={(e) => onChange({ sort: e.target.value as FlagSort })}>
        {FLAG_SORTS.map(([sort, label]) => (
          <option key={sort} value={sort}>
            {label}
          </option>
        ))}
      </select>
      {children}
    </div>
  );
}
