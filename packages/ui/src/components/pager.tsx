/** Previous / next and "x–y of n" for lists paged in the browser. */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  if (total <= pageSize) return null;
  const pages = Math.ceil(total / pageSize);
  const first = page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  return (
    <nav className="pager" aria-label="Pages">
      <span className="pager-range">
        {first.toLocaleString()}–{last.toLocaleString()} of {total.toLocaleString()}
      </span>
      <button type="button" className="button button-small" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="pager-page">
        Page {page + 1} of {pages}
      </span>
      <button type="button" className="button button-small" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
