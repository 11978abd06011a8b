/** When a flag was last evaluated: "3 minutes ago" (the exact time on hover), or "never". */
import { exactTime, lastEvaluatedText } from '../../lib/relative-time.js';

export function LastEvaluated({ at, now }: { at: string | null; now: number }) {
  if (at === null) return <span className="muted">{lastEvaluatedText(at, now)}</span>;
  return (
    <time dateTime={at} title={exactTime(at)}>
      {lastEvaluatedText(at, now)}
    </time>
  );
}
