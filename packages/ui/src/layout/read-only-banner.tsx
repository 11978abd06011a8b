/**
 * The banner over every page of a read-only server: where the flags are served from, when the
 * files were last applied (relative, exact on hover in the chosen time zone), and the latest change of the files the
 * server refused, if any. It cannot be dismissed: the state lasts as long as the server's settings.
 */
import { useEffect, useState } from 'react';
import { useTimeZone } from '../hooks/time-zone.js';
import { exactTime, relativeTime } from '../lib/relative-time.js';
import { lastSyncOf, readOnlyAdvice, readOnlyHeadline, refusedChange, type ServerStorage } from '../lib/read-only.js';
import './read-only-banner.css';

const PREFIX = 'Read-only:';

/** The current time, again every `everyMs`, so that "3 minutes ago" keeps counting. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function ReadOnlyBanner({ storage }: { storage: ServerStorage }) {
  const now = useNow(30_000);
  const zone = useTimeZone();
  const headline = readOnlyHeadline(storage);
  const lastSync = lastSyncOf(storage);
  const refused = refusedChange(storage);
  return (
    <section className="read-only-banner" aria-label="Read-only">
      <p className="read-only-headline">
        <span className="read-only-icon" aria-hidden="true">
          <svg viewBox="0 0 16 16" width="16" height="16" fill="currentColor">
            <path d="M8 1a3.5 3.5 0 0 0-3.5 3.5V6H4a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V7a1 1 0 0 0-1-1h-.5V4.5A3.5 3.5 0 0 0 8 1Zm2 5H6V4.5a2 2 0 1 1 4 0V6Z" />
          </svg>
        </span>
        <span>
          <strong>{PREFIX}</strong>
          {headline.slice(PREFIX.length)}
        </span>
      </p>
      <p className="read-only-detail">
        {readOnlyAdvice(storage)}
        {lastSync !== undefined && (
          <>
            {' '}
            <span className="read-only-sync">
              Last synced{' '}
              <time dateTime={lastSync} title={exactTime(lastSync, zone)}>
                {relativeTime(lastSync, now)}
              </time>
              .
            </span>
          </>
        )}
      </p>
      {refused !== undefined && (
        <p className="read-only-refused">
          <span aria-hidden="true">⚠ </span>
          {refused}
        </p>
      )}
    </section>
  );
}
