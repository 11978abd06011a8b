/**
 * Chooses the segments of a rule or segment rollout: one or more, and with several, whether every
 * segment must match (AND) or any one (OR). A namespace without segments gets a way to make one.
 */
import type { Segment, SegmentOperator } from '@ensign/core';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { FieldError } from '../../components/field.js';
import { paths } from '../../layout/namespace.js';

export interface SegmentChoice {
  keys: string[];
  operator: SegmentOperator;
}

/** Lists with more segments than this get a filter box. */
const FILTER_FROM = 8;
/**
 * At most this many segments not chosen are listed at once (the chosen ones always are): a long
 * list is found by filtering, and a key typed into the filter never re-renders thousands of rows.
 */
const LISTED_AT_MOST = 50;

export function SegmentPicker({ ns, segments, value, onChange, error }: { ns: string; segments: readonly Segment[]; value: SegmentChoice; onChange: (value: SegmentChoice) => void; error?: string | undefined }) {
  const id = useId();
  const [filter, setFilter] = useState('');
  if (segments.length === 0 && value.keys.length === 0) {
    return (
      <div className="notice" role="note">
        This namespace has no segments yet, and this needs at least one. <Link to={paths.segments(ns)}>Create a segment on the Segments page</Link>, then come back.
      </div>
    );
  }
  const known = new Set(segments.map((s) => s.key));
  const gone = value.keys.filter((key) => !known.has(key));
  const needle = filter.trim().toLowerCase();
  const chosen = new Set(value.keys);
  const matches = needle === '' ? segments : segments.filter((s) => chosen.has(s.key) || `${s.key} ${s.name}`.toLowerCase().includes(needle));
  let room = LISTED_AT_MOST;
  const shown = matches.length <= LISTED_AT_MOST ? matches : matches.filter((s) => chosen.has(s.key) || room-- > 0);
  const unlisted = matches.length - shown.length;
  const toggle = (key: string, on: boolean) => onChange({ ...value, keys: on ? [...value.keys, key] : value.keys.filter((k) => k !== key) });

  return (
    <div className={error === undefined ? 'segment-picker' : 'segment-picker field-invalid'}>
      <fieldset aria-describedby={error === undefined ? undefined : `${id}-error`}>
        <legend>Segments</legend>
        {segments.length > FILTER_FROM && (
          <input type="search" className="segment-filter" aria-label="Filter segments" placeholder="Filter segments" value={filter} onChange={(e) => setFilter(e.target.value)} />
        )}
        <div className="segment-options">
          {gone.map((key) => (
            <label key={key} className="segment-option">
              <input type="checkbox" checked onChange={() => toggle(key, false)} />
              <code>{key}</code>
              <span className="badge badge-warning">missing</span>
            </label>
          ))}
          {shown.map((s) => (
            <label key={s.key} className="segment-option">
              <input type="checkbox" checked={chosen.has(s.key)} onChange={(e) => toggle(s.key, e.target.checked)} />
              <code>{s.key}</code>
              {s.name !== '' && s.name !== s.key && (
                <span className="muted" aria-hidden="true">
                  {s.name}
                </span>
              )}
            </label>
          ))}
          {shown.length === 0 && <p className="muted">No segment matches “{filter}”.</p>}
          {unlisted > 0 && (
            <p className="muted" role="status">
              {unlisted.toLocaleString()} more {needle === '' ? '' : 'matching '}
              {unlisted === 1 ? 'segment is' : 'segments are'} not listed: type in the filter to find one.
            </p>
          )}
        </div>
      </fieldset>
      <FieldError id={`${id}-error`} error={error} />
      {value.keys.length > 1 && (
        <div className="field operator-field">
          <label htmlFor={`${id}-operator`}>Segment operator</label>
          <select id={`${id}-operator`} value={value.operator} onChange={(e) => onChange({ ...value, operator: e.target.value as SegmentOperator })}>
            <option value="OR_SEGMENT_OPERATOR">OR: any of the segments matches</option>
            <option value="AND_SEGMENT_OPERATOR">AND: every segment matches</option>
          </select>
        </div>
      )}
    </div>
  );
}
