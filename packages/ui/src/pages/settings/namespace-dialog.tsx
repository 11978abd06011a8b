/** Creates a namespace (key suggested from the name) or edits one's name and description. */
import type { Namespace } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { namespaces } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { NameKeyFields } from '../../components/name-key-fields.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { shownErrors } from '../../api/user-error.js';
import { useFreshRefusal } from '../../hooks/form-errors.js';
import { changesOf, hasProblems, KEY_HINT, nameKeyProblems, type Problems, withoutProblem } from '../../lib/form-checks.js';

export interface NamespaceDialogProps {
  open: boolean;
  /** The namespace to edit; a new one when undefined. */
  namespace: Namespace | undefined;
  onClose: () => void;
}

export function NamespaceDialog({ open, namespace, onClose }: NamespaceDialogProps) {
  const [form, setForm] = useState({ key: '', name: '', description: '' });
  const [checks, setChecks] = useState<Problems>({});
  const queries = useQueryClient();
  const toast = useToast();
  const editing = namespace !== undefined;
  const save = useMutation({
    mutationFn: () =>
      editing ? namespaces.update(namespace.key, { name: form.name, description: form.description }) : namespaces.create({ ...form, key: form.key.trim() }),
    onSuccess: async (saved) => {
      // The namespace switcher of the top bar reads this list; a new namespace has permissions of its own.
      await Promise.all([queries.invalidateQueries({ queryKey: queryKeys.namespaces }), queries.invalidateQueries({ queryKey: queryKeys.permissions })]);
      toast(editing ? `Namespace "${saved.key}" saved` : `Namespace "${saved.key}" created`);
      onClose();
    },
  });
  const { reset } = save;

  useEffect(() => {
    if (!open) return;
    setForm(namespace === undefined ? { key: '', name: '', description: '' } : { key: namespace.key, name: namespace.name, description: namespace.description });
    setChecks({});
    reset();
  }, [open, namespace, reset]);

  const refused = shownErrors(save.error, ['key', 'name', 'description']);
  const refusal = useFreshRefusal(save.error);
  const refusedNow = refusal.fresh(refused.byField);
  const errorOf = (field: string) => checks[field] ?? refusedNow[field];
  const edit = (changes: Partial<typeof form>) => {
    const changed = Object.keys(changesOf(form, changes));
    setChecks((old) => changed.reduce(withoutProblem, old));
    refusal.edited(...changed);
    setForm((f) => ({ ...f, ...changes }));
  };
  const submit = () => {
    const found = nameKeyProblems(form, !editing);
    setChecks(found);
    if (!hasProblems(found)) save.mutate();
  };
  return (
    <Dialog
      open={open}
      title={editing ? `Edit namespace ${namespace.key}` : 'New namespace'}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogButtons onCancel={onClose} label={editing ? 'Save namespace' : 'Create namespace'} busy={save.isPending} busyLabel="Saving…" />}
    >
      <ErrorBanner error={refused.general} />
      <NameKeyFields
        value={form}
        onChange={edit}
        errors={{ name: errorOf('name'), key: errorOf('key') }}
        keyHint={editing ? 'The key of a namespace cannot be changed.' : `${KEY_HINT} It appears in API paths and cannot be changed later.`}
        keyReadOnly={editing}
      />
      <Field label="Description" error={errorOf('description')}>
        <textarea rows={2} value={form.description} onChange={(e) => edit({ description: e.target.value })} />
      </Field>
    </Dialog>
  );
}
