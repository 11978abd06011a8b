/**
 * A request's review: its approvals against what the policy asks for, where it stands (scheduled,
 * suspended, applied), and what the caller may do in its state. Approving sends the digest of the
 * changes shown, so changes replaced meanwhile are not approved unseen; the author may not approve.
 */
import { useId, useState } from 'react';
import { changeRequests } from '../../api/change-requests.js';
import { useConfirm } from '../../components/confirm.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import type { Review } from '../../hooks/change-policy.js';
import { formErrors } from '../../hooks/form-errors.js';
import { useTimeZone, useZoneHint } from '../../hooks/time-zone.js';
import { actorLabel } from '../../lib/change-summary.js';
import { actionsIn, approvalsText, type ChangeRequestView, isCaller } from '../../lib/change-requests.js';
import { countNoun } from '../../lib/count-noun.js';
import { absoluteTime, relativeTime } from '../../lib/relative-time.js';
import { wallTimeToUtc } from '../../lib/zoned-datetime.js';
import { useRequestMutation } from './use-request-mutation.js';

function RejectDialog({ ns, request, open, onClose }: { ns: string; request: ChangeRequestView; open: boolean; onClose: () => void }) {
  const [comment, setComment] = useState('');
  const reject = useRequestMutation(ns, () => changeRequests.reject(ns, request.id, comment.trim()), () => 'Change request rejected');
  return (
    <Dialog
      open={open}
      title="Reject change request"
      onClose={onClose}
      onSubmit={() => {
        if (!reject.isPending) reject.mutate(undefined, { onSuccess: onClose });
      }}
      footer={<DialogButtons onCancel={onClose} label="Reject" busy={reject.isPending} busyLabel="Rejecting…" />}
    >
      <ErrorBanner error={reject.error} />
      <Field label="Why" hint="Told to the author with the rejection. A rejected request is closed for good.">
        <textarea rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
      </Field>
    </Dialog>
  );
}

function ScheduleDialog({ ns, request, open, onClose }: { ns: string; request: ChangeRequestView; open: boolean; onClose: () => void }) {
  const zone = useTimeZone();
  const hint = useZoneHint();
  const [wall, setWall] = useState('');
  const at = wallTimeToUtc(wall, zone);
  const schedule = useRequestMutation(ns, (applyAt: string) => changeRequests.apply(ns, request.id, applyAt), (saved) => `Scheduled to apply ${absoluteTime(saved.applyAt ?? '', zone)}`);
  const errors = formErrors(schedule.error, { applyAt: 'applyAt' });
  return (
    <Dialog
      open={open}
      title="Schedule the apply"
      onClose={onClose}
      onSubmit={() => {
        if (at !== undefined && !schedule.isPending) schedule.mutate(at, { onSuccess: onClose });
      }}
      footer={<DialogButtons onCancel={onClose} label="Schedule" busy={schedule.isPending} busyLabel="Scheduling…" disabled={at === undefined || schedule.isPending} />}
    >
      <ErrorBanner error={errors.general} />
      <Field label="Apply at" hint={hint} error={errors.byField['applyAt']}>
        <input type="datetime-local" value={wall} onChange={(e) => setWall(e.target.value)} />
      </Field>
      <p className="muted">The changes are applied at that time as approved; should they no longer apply then, the request goes back to approved and says why.</p>
    </Dialog>
  );
}

export function RequestReview({ ns, request, review, now }: { ns: string; request: ChangeRequestView; review: Review; now: number }) {
  const titleId = useId();
  const zone = useTimeZone();
  const confirm = useConfirm();
  const [rejecting, setRejecting] = useState({ open: false, key: 0 });
  const [scheduling, setScheduling] = useState({ open: false, key: 0 });
  const can = actionsIn(request.state);
  const own = isCaller(request.author, review.caller);
  const required = Math.max(1, review.required);
  const submit = useRequestMutation(ns, () => changeRequests.submit(ns, request.id), () => 'Submitted for review');
  const approve = useRequestMutation(ns, () => changeRequests.approve(ns, request.id, request.digest), (saved) =>
    saved.state === 'approved' ? 'Approved: the changes can be applied' : `Approved (${approvalsText(saved.approvals.length, required)})`,
  );
  const apply = useRequestMutation(ns, () => changeRequests.apply(ns, request.id), (saved) => `Applied at revision ${saved.appliedRevision ?? '?'}`);
  const cancel = useRequestMutation(ns, () => changeRequests.cancel(ns, request.id), () => 'Change request cancelled');
  const busy = submit.isPending || approve.isPending || apply.isPending || cancel.isPending;
  const failure = submit.error ?? approve.error ?? apply.error ?? cancel.error;
  const approvers = request.approvals.map((event) => actorLabel(event.actor));
  const approvedByCaller = review.caller !== undefined && request.approvals.some((event) => isCaller(event.actor, review.caller));
  const mayApprove = can.approve && review.approve && !own && !approvedByCaller;
  // The author withdraws their own request by cancelling it.
  const mayReject = can.reject && review.approve && !own;
  const changes = countNoun(request.changes.length, 'change');
  const reviewing = request.state === 'in_review' || request.state === 'approved' || request.state === 'scheduled';

  const askApply = async () => {
    const yes = await confirm({ title: 'Apply change request', message: `Apply its ${changes} to ${ns} now, all at once?`, action: 'Apply now', danger: false });
    if (yes) apply.mutate(undefined);
  };
  const askCancel = async () => {
    const yes = await confirm({ title: 'Cancel change request', message: `Cancel “${request.title}”? Its changes are never applied; the request stays, closed.`, action: 'Cancel request' });
    if (yes) cancel.mutate(undefined);
  };

  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card-header">
        <div>
          <h2 id={titleId}>Review</h2>
          <p>
            {reviewing || request.state === 'applied' ? (
              <span className="cr-approvals">{approvalsText(request.approvals.length, required)}</span>
            ) : request.state === 'draft' ? (
              'A draft: nobody reviews it until it is submitted.'
            ) : (
              `${request.state === 'rejected' ? 'Rejected' : 'Cancelled'}: its changes are never applied.`
            )}
            {approvers.length > 0 && <> · approved by {approvers.join(', ')}</>}
          </p>
        </div>
      </div>
      <div className="card-body">
        <ErrorBanner error={failure} />
        {request.state === 'applied' && (
          <p>
            Applied{' '}
            <time dateTime={request.updatedAt} title={absoluteTime(request.updatedAt, zone)}>
              {relativeTime(request.updatedAt, now)}
            </time>
            {request.appliedRevision === undefined ? '' : `, as revision ${request.appliedRevision} of ${ns}`}.
          </p>
        )}
        {(request.state === 'rejected' || request.state === 'cancelled') && (
          <p className="muted">
            {request.state === 'rejected' ? 'Rejected' : 'Cancelled'}{' '}
            <time dateTime={request.updatedAt} title={absoluteTime(request.updatedAt, zone)}>
              {relativeTime(request.updatedAt, now)}
            </time>
            ; it stays here, closed, with its discussion.
          </p>
        )}
        {request.state === 'scheduled' && request.applyAt !== undefined && (
          <p className="notice" role="note">
            To be applied <time dateTime={request.applyAt}>{absoluteTime(request.applyAt, zone)}</time>.
          </p>
        )}
        {request.suspendedReason !== undefined && (
          <p className="notice" role="note">
            Its scheduled apply did not happen: {request.suspendedReason}
          </p>
        )}
        {can.approve && own && <p className="muted">You wrote this request: someone else approves it.</p>}
        {can.approve && approvedByCaller && <p className="muted">You approved these changes.</p>}
        {(can.approve || can.apply) && (
          <p className="muted cr-digest">
            Approvals are of these exact changes (digest <code title={request.digest}>{request.digest.slice(0, 12)}</code>); replacing them asks for approval again.
          </p>
        )}
        <div className="cr-actions" hidden={!(can.submit || mayApprove || can.apply || can.schedule || mayReject || can.cancel)}>
          {can.submit && (
            <button type="button" className="button button-primary" disabled={busy} onClick={() => submit.mutate(undefined)}>
              Submit for review
            </button>
          )}
          {mayApprove && (
            <button type="button" className="button button-primary" disabled={busy || request.conflict !== undefined} onClick={() => approve.mutate(undefined)}>
              Approve
            </button>
          )}
          {can.apply && (
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void askApply()}>
              Apply now
            </button>
          )}
          {can.schedule && (
            <button type="button" className="button" disabled={busy} onClick={() => setScheduling((s) => ({ open: true, key: s.key + 1 }))}>
              {request.state === 'scheduled' ? 'Reschedule…' : 'Schedule…'}
            </button>
          )}
          {mayReject && (
            <button type="button" className="button" disabled={busy} onClick={() => setRejecting((r) => ({ open: true, key: r.key + 1 }))}>
              Reject…
            </button>
          )}
          {can.cancel && (
            <button type="button" className="button button-ghost danger-text" disabled={busy} onClick={() => void askCancel()}>
              Cancel request
            </button>
          )}
        </div>
      </div>
      <RejectDialog key={`reject-${rejecting.key}`} ns={ns} request={request} open={rejecting.open} onClose={() => setRejecting((r) => ({ ...r, open: false }))} />
      <ScheduleDialog key={`schedule-${scheduling.key}`} ns={ns} request={request} open={scheduling.open} onClose={() => setScheduling((s) => ({ ...s, open: false }))} />
    </section>
  );
}
