/** The table of static tokens, times in the chosen time zone; on a narrow screen each row becomes a small card. */
import { RowActions, RowActionsHeader } from '../../components/row-actions.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { formatInstant, formatReadable } from '../../lib/time-format.js';
import type { TokenRow } from '../../lib/token-list.js';
import { relativeTime } from '../../lib/token-list.js';

function When({ date }: { date: Date }) {
  const zone = useTimeZone();
  return (
    <time dateTime={date.toISOString()} title={formatInstant(date, zone, { seconds: true })}>
      {formatReadable(date, zone)}
    </time>
  );
}

function Expiry({ row }: { row: TokenRow }) {
  if (row.expiresAt === undefined) return <span className="muted">Never</span>;
  return (
    <span className="token-expiry">
      {row.expired && <span className="badge badge-danger">Expired</span>}
      <When date={row.expiresAt} />
      {!row.expired && <span className="muted token-relative">{relativeTime(row.expiresAt, new Date())}</span>}
    </span>
  );
}

export interface TokensTableProps {
  rows: readonly TokenRow[];
  /** The caller's own authentication, marked in the list. */
  ownId: string | undefined;
  /** The token being deleted now. */
  deleting: string | undefined;
  /** Without it, the rows have no Delete button (a session that may not delete tokens). */
  onDelete?: (row: TokenRow) => void;
}

export function TokensTable({ rows, ownId, deleting, onDelete }: TokensTableProps) {
  return (
    <div className="table-wrap">
      <table className="table tokens-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Namespace</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <RowActionsHeader />
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={row.expired ? 'token-expired' : undefined}>
              <td data-label="Name">
                <div className="token-name">
                  <strong className="clamp-lines" title={row.name}>
                    {row.name === '' ? <span className="muted">(no name)</span> : row.name}
                  </strong>
                  {row.id === ownId && <span className="badge badge-accent">Your session</span>}
                </div>
                {row.description !== '' && (
                  <div className="muted token-description clamp-lines" title={row.description}>
                    {row.description}
                  </div>
                )}
              </td>
              <td data-label="Namespace">{row.namespace === undefined ? <span className="muted">All namespaces</span> : <span className="badge">{row.namespace}</span>}</td>
              <td data-label="Created">
                <When date={row.createdAt} />
              </td>
              <td data-label="Expires">
                <Expiry row={row} />
              </td>
              <RowActions what={`token ${row.name === '' ? row.id : row.name}`} {...(onDelete === undefined ? {} : { onDelete: () => onDelete(row) })} deleting={deleting === row.id} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
