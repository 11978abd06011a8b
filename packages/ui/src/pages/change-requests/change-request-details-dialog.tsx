/** A draft's title and description, edited (its changes are sent back as they are). */
import { useState } from 'react';
import { changeRequests } from '../../api/change-requests.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { formErrors } from '../../hooks/form-errors.js';
import type { ChangeRequestView } from '../../lib/change-requests.js';
import { useRequestMutation } from './use-request-mutation.js';

export function ChangeRequestDetailsDialog({ ns, request, open, onClose }: { ns: string; request: ChangeRequestView; open: boolean; onClose: () => void }) {
  const [title, setTitle] = useState(request.title);
  const [description, setDescription] = useState(request.description);
  const save = useRequestMutation(
    ns,
    () => changeRequests.replace(ns, request.id, { title: title.trim(), description, changes: request.changes }),
    () => 'Change request saved',
  );
  const errors = formErrors(save.error, ['title', 'description']);
  const missing = title.trim() === '';
  return (
    <Dialog
      open={open}
      title="Edit change request"
      onClose={onClose}
      onSubmit={() => {
        if (!missing && !save.isPending) save.mutate(undefined, { onSuccess: onClose });
      }}
      footer={<DialogButtons onCancel={onClose} label="Save" busy={save.isPending} busyLabel="Saving…" disabled={missing || save.isPending} />}
    >
      <ErrorBanner error={errors.general} />
      <Field label="Title" error={errors.byField['title'] ?? (missing ? 'A title is needed' : undefined)}>
        <input value={title} autoComplete="off" onChange={(e) => setTitle(e.target.value)} />
      </Field>
      <Field label="Description" error={errors.byField['description']} hint="What the changes are for, for the reviewers.">
        <textarea rows={4} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
    </Dialog>
  );
}
