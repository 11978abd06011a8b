/** One stored change: what it did, who and when (and the change request it was applied by), and its lines (`name: flag-x → Renamed`). */
import type { AuditEntry } from '@ensign/core';
import { useId } from 'react';
import { Link } from 'react-router';
import { useTimeZone } from '../hooks/time-zone.js';
import { paths } from '../layout/namespace.js';
import { changeLines, type DiffLine, EMPTY, NONE } from '../lib/change-diff.js';
import type { Labels } from '../lib/change-labels.js';
import { actorLabel, describeChange, ownerOf } from '../lib/change-summary.js';
import { absoluteTime, relativeTime } from '../lib/relative-time.js';
import { KeyBreaks } from './key-text.js';

/**
 * An old value struck through, a new one marked as added, a deleted one marked as gone; `(none)`
 * and `(empty)` as placeholders. Values are mostly keys: they break between their words.
 */
function Value({ text, as }: { text: string; as: 'old' | 'new' | 'gone' }) {
  if (text === NONE || text === EMPTY) return <span className="change-placeholder">{text}</span>;
  if (as === 'new') {
    return (
      <ins>
        <KeyBreaks value={text} />
      </ins>
    );
  }
  return (
    <del className={as === 'gone' ? 'change-gone' : undefined}>
      <KeyBreaks value={text} />
    </del>
  );
}

function Line({ line: { path, before, after } }: { line: DiffLine }) {
  return (
    <li>
      <span className="change-field">{path}</span>
      {': '}
      {before !== undefined && after !== undefined ? (
        <>
          <Value text={before} as="old" />
          {' → '}
          <Value text={after} as="new" />
        </>
      ) : (
        <Value text={after ?? before ?? ''} as={after !== undefined ? 'new' : 'gone'} />
      )}
    </li>
  );
}

/** The flag or segment a change belongs to, as a link (the activity feed's entries). */
function Owner({ ns, entry }: { ns: string; entry: AuditEntry }) {
  const owner = ownerOf(entry);
  if (owner === undefined) return null;
  const to = owner.kind === 'flag' ? paths.flag(ns, owner.key) : paths.segment(ns, owner.key);
  return (
    <span className="change-owner">
      {owner.kind === 'flag' ? 'Flag' : 'Segment'}{' '}
      <Link to={to} className="key-text">
        <KeyBreaks value={owner.key} />
      </Link>
    </span>
  );
}

/** `meta` false leaves out who and when: a change not made yet (a change request's diff). */
export function ChangeEntry({ ns, entry, labels, now, showOwner = false, meta = true }: { ns: string; entry: AuditEntry; labels: Labels; now: number; showOwner?: boolean; meta?: boolean }) {
  const id = useId();
  const zone = useTimeZone();
  const lines = changeLines(entry, labels);
  return (
    <li className="change" aria-labelledby={id}>
      <div className="change-head">
        <strong id={id} className="change-what">
          {describeChange(entry, labels)}
        </strong>
        {showOwner && <Owner ns={ns} entry={entry} />}
      </div>
      {meta && (
        <p className="change-meta">
          <span title={entry.actor?.method}>{actorLabel(entry.actor)}</span>
          {' · '}
          <time dateTime={entry.at} title={absoluteTime(entry.at, zone)}>
            {relativeTime(entry.at, now)}
          </time>
          {entry.changeRequest !== undefined && (
            <>
              {' · via '}
              <Link to={paths.changeRequest(entry.namespaceKey, entry.changeRequest.id)} className="change-request-link">
                {entry.changeRequest.title}
              </Link>
            </>
          )}
        </p>
      )}
      {lines.length > 0 && (
        <ul className="change-lines" aria-label="Changed fields">
          {lines.map((line, i) => (
            <Line key={`${i}:${line.path}`} line={line} />
          ))}
        </ul>
      )}
    </li>
  );
}
