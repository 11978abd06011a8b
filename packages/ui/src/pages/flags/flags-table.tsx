/** One page of flags: each row leads to its flag (the key is the link; a click anywhere on the row works too). */
import type { Flag } from '@ensign/core';
import { memo } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../layout/namespace.js';
import { absoluteTime, relativeTime } from '../../lib/relative-time.js';
import { FLAG_TYPE_LABEL } from './flag-update.js';

const FlagRow = memo(function FlagRow({ ns, flag, now }: { ns: string; flag: Flag; now: number }) {
  const navigate = useNavigate();
  const to = paths.flag(ns, flag.key);
  return (
    <tr
      className="clickable-row"
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest('a, button') && window.getSelection()?.toString() === '') void navigate(to);
      }}
    >
      <td>
        <Link to={to} className="mono flag-key-link">
          {flag.key}
        </Link>
      </td>
      <td>
        <div className="flag-name">{flag.name}</div>
        {flag.description !== '' && <div className="muted flag-description">{flag.description}</div>}
      </td>
      <td className="hide-narrow">
        <span className="badge badge-accent">{FLAG_TYPE_LABEL[flag.type]}</span>
      </td>
      <td>
        <span className={flag.enabled ? 'badge badge-on' : 'badge badge-off'}>{flag.enabled ? 'Enabled' : 'Disabled'}</span>
      </td>
      <td className="hide-narrow numeric">{flag.type === 'VARIANT_FLAG_TYPE' ? flag.variants.length : <span className="muted">–</span>}</td>
      <td className="hide-narrow muted nowrap">
        <time dateTime={flag.updatedAt} title={absoluteTime(flag.updatedAt)}>
          {relativeTime(flag.updatedAt, now)}
        </time>
      </td>
    </tr>
  );
});

export function FlagsTable({ ns, flags }: { ns: string; flags: readonly Flag[] }) {
  // To the minute, so that rows whose flag did not change skip rendering.
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  return (
    <div className="table-wrap">
      <table className="table flags-table">
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
          </tr>
        </thead>
        <tbody>
          {flags.map((flag) => (
            <FlagRow key={flag.key} ns={ns} flag={flag} now={now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
