/** When a flag was last evaluated: "3 minutes ago" (the exact time on hover, in the chosen time zone), or "never". */
import { useTimeZone } from '../../hooks/time-zone.js';
import { exactTime, lastEvaluatedText } from '../../lib/relative-time.js';

export function LastEvaluated({ at, now }: { at: string | null; now: number }) {
  const zone = useTimeZone();
  if (at === null) return <span className="muted">{lastEvaluatedText(at, now)}</span>;
  return (
    <time dateTime={at} title={exactTime(at, zone)}>
      {lastEvaluatedText(at, now)}
    </time>
  );
}
