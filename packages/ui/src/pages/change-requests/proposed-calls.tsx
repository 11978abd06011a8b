/**
 * The calls a request proposes, as sent (method, path, body); in a draft each can be taken out
 * (the last one only by cancelling the draft).
 */
import { changeRequests } from '../../api/change-requests.js';
import { ErrorBanner } from '../../components/status.js';
import { type ChangeRequestView, shortPath } from '../../lib/change-requests.js';
import { countNoun } from '../../lib/count-noun.js';
import { useRequestMutation } from './use-request-mutation.js';

export function ProposedCalls({ ns, request, editable, expanded }: { ns: string; request: ChangeRequestView; editable: boolean; expanded: boolean }) {
  const remove = useRequestMutation(
    ns,
    (index: number) => changeRequests.replace(ns, request.id, { title: request.title, description: request.description, changes: request.changes.filter((_, i) => i !== index) }),
    (saved) => `Change taken out of the draft; it holds ${countNoun(saved.changes.length, 'change')}`,
  );
  const removable = editable && request.changes.length > 1;
  return (
    <details className="cr-calls" open={expanded}>
      <summary>The API calls it makes ({request.changes.length})</summary>
      <ErrorBanner error={remove.error} />
      <ol className="cr-call-list" aria-label="Proposed calls">
        {request.changes.map((change, i) => (
          <li key={`${i}:${change.method}:${change.path}`} className="cr-call">
            <div className="cr-call-head">
              <span className="cr-call-line">
                <span className="cr-method">{change.method}</span> <code>{shortPath(change, ns)}</code>
              </span>
              {removable && (
                <button type="button" className="button button-small button-ghost danger-text" disabled={remove.isPending} onClick={() => remove.mutate(i)} aria-label={`Take out change ${i + 1}`}>
                  Take out
                </button>
              )}
            </div>
            {change.body !== undefined && <pre className="block cr-call-body">{JSON.stringify(change.body, null, 2)}</pre>}
          </li>
        ))}
      </ol>
    </details>
  );
}
