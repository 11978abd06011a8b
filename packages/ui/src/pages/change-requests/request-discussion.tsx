/** A request's events, oldest first (comments, approvals, rejections, each with who and when), and a comment box. */
import type { ChangeRequestEvent } from '@ensign/core';
import { useId, useState } from 'react';
import { changeRequests } from '../../api/change-requests.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { formErrors } from '../../hooks/form-errors.js';
import { useTimeZone } from '../../hooks/time-zone.js';
import { actorLabel } from '../../lib/change-summary.js';
import type { ChangeRequestView } from '../../lib/change-requests.js';
import { absoluteTime, relativeTime } from '../../lib/relative-time.js';
import { useRequestMutation } from './use-request-mutation.js';

const VERB: Readonly<Record<ChangeRequestEvent['kind'], string>> = { approved: 'approved', rejected: 'rejected', commented: 'commented' };

function EventItem({ event, digest, now }: { event: ChangeRequestEvent; digest: string; now: number }) {
  const zone = useTimeZone();
  return (
    <li className={`cr-event cr-event-${event.kind}`}>
      <p className="cr-event-head">
        <strong>{actorLabel(event.actor)}</strong> {VERB[event.kind]}
        {event.kind === 'approved' && event.digest !== digest && <span className="muted"> (changes since replaced)</span>}
        {' · '}
        <time dateTime={event.at} title={absoluteTime(event.at, zone)} className="muted">
          {relativeTime(event.at, now)}
        </time>
      </p>
      {event.comment !== '' && <p className="cr-event-comment">{event.comment}</p>}
    </li>
  );
}

export function RequestDiscussion({ ns, request, now }: { ns: string; request: ChangeRequestView; now: number }) {
  const titleId = useId();
  const [comment, setComment] = useState('');
  const send = useRequestMutation(ns, (text: string) => changeRequests.comment(ns, request.id, text), () => 'Comment added');
  const errors = formErrors(send.error, ['comment']);
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card-header">
        <h2 id={titleId}>Discussion</h2>
      </div>
      <div className="card-body">
        {request.events.length === 0 ? (
          <p className="muted">No comments or reviews yet.</p>
        ) : (
          <ol className="cr-events" aria-label="Events">
            {request.events.map((event, i) => (
              <EventItem key={`${i}:${event.at}`} event={event} digest={request.digest} now={now} />
            ))}
          </ol>
        )}
        <form
          className="cr-comment-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (comment.trim() !== '' && !send.isPending) send.mutate(comment.trim(), { onSuccess: () => setComment('') });
          }}
        >
          <ErrorBanner error={errors.general} />
          <Field label="Comment" error={errors.byField['comment']}>
            <textarea rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
          </Field>
          <div className="form-actions">
            <button type="submit" className="button" disabled={comment.trim() === '' || send.isPending}>
              {send.isPending ? 'Sending…' : 'Comment'}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
