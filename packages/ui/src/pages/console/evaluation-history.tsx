/** The last few evaluations of this browser tab, to run one again. */
import { KeyText } from '../../components/key-text.js';
import type { HistoryEntry } from '../../lib/evaluation-console.js';
import { relativeTime } from '../../lib/relative-time.js';

export function EvaluationHistory({ history, onRun, onClear }: { history: HistoryEntry[]; onRun: (entry: HistoryEntry) => void; onClear: () => void }) {
  if (history.length === 0) return null;
  const now = Date.now();
  return (
    <section className="card console-history" aria-labelledby="history-title">
      <div className="card-header">
        <h2 id="history-title">Recent evaluations</h2>
        <button type="button" className="button button-small button-ghost" onClick={onClear}>
          Clear history
        </button>
      </div>
      <ol className="history-list">
        {history.map((entry) => {
          const context = Object.entries(entry.body.context);
          return (
            <li key={`${entry.at}-${entry.body.flagKey}`}>
              <div className="history-text">
                <div>
                  <KeyText value={entry.body.flagKey} /> for <KeyText value={entry.body.entityId === '' ? '""' : entry.body.entityId} />
                  <span className="muted"> → {entry.summary}</span>
                </div>
                <div className="muted history-context">
                  {context.length === 0 ? 'no context' : context.map(([k, v]) => `${k}=${v}`).join(', ')} · <time dateTime={entry.at}>{relativeTime(entry.at, now)}</time>
                </div>
              </div>
              <button type="button" className="button button-small" aria-label={`Run again: ${entry.body.flagKey} for ${entry.body.entityId}`} onClick={() => onRun(entry)}>
                Run again
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
