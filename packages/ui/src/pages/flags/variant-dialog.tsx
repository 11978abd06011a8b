/** Adds a variant to a flag or edits one: key, name, description and a JSON attachment. */
import type { Variant } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { variants, type VariantInput } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { formErrors, useFreshRefusal } from '../../hooks/form-errors.js';
import { formatJson } from '../../lib/json-text.js';
import { AttachmentField, attachmentSavable } from './attachment-field.js';

export interface VariantDialogProps {
  ns: string;
  flagKey: string;
  open: boolean;
  /** The variant to edit; none to add one. */
  variant: Variant | undefined;
  onClose: () => void;
}

export function VariantDialog({ ns, flagKey, open, variant, onClose }: VariantDialogProps) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [input, setInput] = useState<VariantInput>(() => ({
    key: variant?.key ?? '',
    name: variant?.name ?? '',
    description: variant?.description ?? '',
    attachment: variant === undefined || variant.attachment === '' ? '' : formatJson(variant.attachment),
  }));
  const save = useMutation({
    mutationFn: (value: VariantInput) => {
      const body = { ...value, attachment: value.attachment.trim() === '' ? '' : value.attachment };
      return variant === undefined ? variants.create(ns, flagKey, body) : variants.update(ns, flagKey, variant.id, body);
    },
    onSuccess: async (saved) => {
      if (isDrafted(saved)) {
        onClose();
        return;
      }
      toast(variant === undefined ? `Variant ${saved.key} added` : `Variant ${saved.key} saved`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: queryKeys.flag(ns, flagKey) });
      await refreshList(queryClient, queryKeys.flags(ns));
    },
  });
  const refused = formErrors(save.error, ['key', 'name', 'description', 'attachment']);
  const refusal = useFreshRefusal(save.error);
  const errors = { general: refused.general, byField: refusal.fresh(refused.byField) };
  const set = (changes: Partial<VariantInput>) => {
    setInput((old) => ({ ...old, ...changes }));
    refusal.edited(...Object.keys(changes));
  };
  const savable = attachmentSavable(input.attachment);

  return (
    <Dialog
      open={open}
      wide
      title={variant === undefined ? 'Add variant' : `Edit variant ${variant.key}`}
      onClose={onClose}
      onSubmit={() => {
        if (savable) save.mutate(input);
      }}
      footer={<DialogButtons onCancel={onClose} label={variant === undefined ? 'Create variant' : 'Save variant'} busy={save.isPending} busyLabel="Saving…" disabled={!savable || save.isPending} />}
    >
      <ErrorBanner error={errors.general} />
      <div className="row">
        <Field label="Key" error={errors.byField['key']} hint="What evaluations return.">
          <input className="mono" value={input.key} autoFocus autoComplete="off" spellCheck={false} onChange={(e) => set({ key: e.target.value })} />
        </Field>
        <Field label="Name" error={errors.byField['name']}>
          <input value={input.name} autoComplete="off" onChange={(e) => set({ name: e.target.value })} />
        </Field>
      </div>
      <Field label="Description" error={errors.byField['description']}>
        <input value={input.description} autoComplete="off" onChange={(e) => set({ description: e.target.value })} />
      </Field>
      <AttachmentField value={input.attachment} onChange={(attachment) => set({ attachment })} serviceError={errors.byField['attachment']} />
    </Dialog>
  );
}
