/** One page of flags: each row leads to its flag (the key is the link; a click anywhere on the row works too). */
import type { Flag } from '@ensign/core';
import { memo } from 'react';
import { Link, useNavigate } from 'react-router';
import type { FlagUsage } from '../../api/endpoints.js';
import { KeyBreaks } from '../../components/key-text.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { paths } from '../../layout/namespace.js';
import type { FlagSort } from '../../lib/flag-list.js';
import { absoluteTime, relativeTime } from '../../lib/relative-time.js';
import { FLAG_TYPE_LABEL } from './flag-update.js';
import { LastEvaluated } from './last-evaluated.js';
import { UsageBadge } from './usage-badge.js';

/** Where the usage listing stands: on its way, there, or not to be had (failed, or a service without it). */
export type UsageState = 'loading' | 'ready' | 'missing';

export interface UsageColumn {
  state: UsageState;
  byFlag: ReadonlyMap<string, FlagUsage> | undefined;
  /** The window the statuses are judged over, as a person says it ("30 days"). */
  windowText: string;
}

/** The usage cell: when the flag was last evaluated and its status, or a placeholder of the same height. */
function UsageCell({ usage, state, windowText, now }: { usage: FlagUsage | undefined; state: UsageState; windowText: string; now: number }) {
  if (state === 'loading') return <span className="muted">…</span>;
  if (usage === undefined) return <span className="muted">–</span>;
  return (
    <span className="usage-cell">
      <LastEvaluated at={usage.lastEvaluatedAt} now={now} />
      <UsageBadge usage={usage} windowText={windowText} />
    </span>
  );
}

interface FlagRowProps {
  ns: string;
  flag: Flag;
  usage: FlagUsage | undefined;
  usageState: UsageState;
  windowText: string;
  now: number;
  /** The time zone of the hover texts. */
  zone: string;
}

const FlagRow = memo(function FlagRow({ ns, flag, usage, usageState, windowText, now, zone }: FlagRowProps) {
  const navigate = useNavigate();
  const to = paths.flag(ns, flag.key);
  return (
    <tr
      className="clickable-row"
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest('a, button') && window.getSelection()?.toString() === '') void navigate(to);
      }}
    >
      <td className="flag-key-cell">
        <Link to={to} className="mono flag-key-link key-text" title={flag.key}>
          <KeyBreaks value={flag.key} />
        </Link>
      </td>
      <td data-label="Name">
        <div className="flag-name clamp-lines" title={flag.name}>
          {flag.name}
        </div>
        {flag.description !== '' && (
          <div className="muted flag-description clamp-lines" title={flag.description}>
            {flag.description}
          </div>
        )}
      </td>
      <td className="hide-narrow" data-label="Type">
        <span className="badge badge-accent">{FLAG_TYPE_LABEL[flag.type]}</span>
      </td>
      <td data-label="State">
        <span className={flag.enabled ? 'badge badge-on' : 'badge badge-off'}>{flag.enabled ? 'Enabled' : 'Disabled'}</span>
      </td>
      <td className="hide-narrow numeric" data-label="Variants">{flag.type === 'VARIANT_FLAG_TYPE' ? flag.variants.length : <span className="muted">–</span>}</td>
      <td className="hide-narrow muted nowrap" data-label="Updated">
        <time dateTime={flag.updatedAt} title={absoluteTime(flag.updatedAt, zone)}>
          {relativeTime(flag.updatedAt, now)}
        </time>
      </td>
      <td className="nowrap last-evaluated-cell" data-label="Last evaluated">
        <UsageCell usage={usage} state={usageState} windowText={windowText} now={now} />
      </td>
    </tr>
  );
});

/** The "Last evaluated" heading: a button that orders the list by it, most recent first, then least recent first. */
function LastEvaluatedHeading({ sort, onSort }: { sort: FlagSort; onSort: (sort: FlagSort) => void }) {
  const order = sort === 'evaluated' ? 'descending' : sort === 'evaluated-oldest' ? 'ascending' : undefined;
  return (
    <th scope="col" aria-sort={order} className="last-evaluated-cell">
      <button type="button" className="sort-heading" onClick={() => onSort(sort === 'evaluated' ? 'evaluated-oldest' : 'evaluated')}>
        Last evaluated
        <span aria-hidden="true" className="sort-arrow">
          {order === 'descending' ? '↓' : order === 'ascending' ? '↑' : '↕'}
        </span>
      </button>
    </th>
  );
}

export interface FlagsTableProps {
  ns: string;
  flags: readonly Flag[];
  usage: UsageColumn;
  sort: FlagSort;
  onSort: (sort: FlagSort) => void;
}

export function FlagsTable({ ns, flags, usage, sort, onSort }: FlagsTableProps) {
  // To the minute, so that rows whose flag did not change skip rendering.
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const zone = useTimeZone();
  return (
    <div className="table-wrap">
      <table className="table table-stacked flags-table">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Name</th>
            <th scope="col" className="hide-narrow">
              Type
            </th>
            <th scope="col">State</th>
            <th scope="col" className="hide-narrow numeric">
              Variants
            </th>
            <th scope="col" className="hide-narrow">
              Updated
            </th>
            <LastEvaluatedHeading sort={sort} onSort={onSort} />
          </tr>
        </thead>
        <tbody>
          {flags.map((flag) => (
            <FlagRow key={flag.key} ns={ns} flag={flag} usage={usage.byFlag?.get(flag.key)} usageState={usage.state} windowText={usage.windowText} now={now} zone={zone} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
