/** Creates a namespace (key suggested from the name) or edits one's name and description. */
import type { Namespace } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { namespaces } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { formErrors } from '../../hooks/form-errors.js';
import { keyFollowingName } from '../../lib/suggest-key.js';

export interface NamespaceDialogProps {
  open: boolean;
  /** The namespace to edit; a new one when undefined. */
  namespace: Namespace | undefined;
  onClose: () => void;
}

export function NamespaceDialog({ open, namespace, onClose }: NamespaceDialogProps) {
  const [form, setForm] = useState({ key: '', name: '', description: '' });
  const queries = useQueryClient();
  const toast = useToast();
  const editing = namespace !== undefined;
  const save = useMutation({
    mutationFn: () =>
      editing ? namespaces.update(namespace.key, { name: form.name, description: form.description }) : namespaces.create({ ...form, key: form.key.trim() }),
    onSuccess: async (saved) => {
      // The namespace switcher of the top bar reads this list.
      await queries.invalidateQueries({ queryKey: queryKeys.namespaces });
      toast(editing ? `Namespace "${saved.key}" saved` : `Namespace "${saved.key}" created`);
      onClose();
    },
  });
  const { reset } = save;

  useEffect(() => {
    if (!open) return;
    setForm(namespace === undefined ? { key: '', name: '', description: '' } : { key: namespace.key, name: namespace.name, description: namespace.description });
    reset();
  }, [open, namespace, reset]);

  const errors = formErrors(save.error, ['key', 'name', 'description']);
  return (
    <Dialog
      open={open}
      title={editing ? `Edit namespace ${namespace.key}` : 'New namespace'}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : editing ? 'Save namespace' : 'Create namespace'}
          </button>
        </>
      }
    >
      <ErrorBanner error={errors.general} />
      <Field label="Name" error={errors.byField['name']}>
        <input
          value={form.name}
          autoComplete="off"
          onChange={(e) => {
            const name = e.target.value;
            setForm((f) => ({ ...f, name, key: editing ? f.key : keyFollowingName(f.name, f.key, name) }));
          }}
        />
      </Field>
      <Field
        label="Key"
        error={errors.byField['key']}
        hint={editing ? 'The key of a namespace cannot be changed.' : 'Letters, digits, - _ and ,. It appears in API paths and cannot be changed later.'}
      >
        <input className="mono" value={form.key} readOnly={editing} autoComplete="off" spellCheck={false} onChange={(e) => setForm((f) => ({ ...f, key: e.target.value }))} />
      </Field>
      <Field label="Description" error={errors.byField['description']}>
        <textarea rows={2} value={form.description} onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))} />
      </Field>
    </Dialog>
  );
}
