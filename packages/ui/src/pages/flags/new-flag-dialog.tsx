/**
 * "New flag": name, key (suggested from the name until the user makes it their own), description,
 * type and whether it starts enabled. The service's refusals show next to their field, with what
 * was typed kept.
 */
import type { Flag, FlagType } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { flags, type FlagInput } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { ErrorBanner } from '../../components/status.js';
import { Field } from '../../components/field.js';
import { NameKeyFields } from '../../components/name-key-fields.js';
import { formErrors } from '../../hooks/form-errors.js';

const TYPES: ReadonlyArray<readonly [FlagType, string, string]> = [
  ['VARIANT_FLAG_TYPE', 'Variant', 'Returns one of several variants, chosen by rules.'],
  ['BOOLEAN_FLAG_TYPE', 'Boolean', 'Returns true or false, chosen by rollouts.'],
];

export function NewFlagDialog({ ns, open, onClose, onCreated }: { ns: string; open: boolean; onClose: () => void; onCreated: (flag: Flag) => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [input, setInput] = useState<FlagInput>({ key: '', name: '', description: '', type: 'VARIANT_FLAG_TYPE', enabled: false });
  const create = useMutation({
    mutationFn: (value: FlagInput) => flags.create(ns, value),
    onSuccess: async (flag) => {
      queryClient.setQueryData(queryKeys.flag(ns, flag.key), flag);
      await refreshList(queryClient, queryKeys.flags(ns));
      onCreated(flag);
    },
  });
  const errors = formErrors(create.error, ['key', 'name', 'description']);
  const set = (changes: Partial<FlagInput>) => setInput((old) => ({ ...old, ...changes }));

  return (
    <Dialog
      open={open}
      title="New flag"
      onClose={onClose}
      onSubmit={() => create.mutate(input)}
      footer={<DialogButtons onCancel={onClose} label="Create flag" busy={create.isPending} busyLabel="Creating…" />}
    >
      <ErrorBanner error={errors.general} />
      <NameKeyFields
        value={input}
        onChange={set}
        errors={errors.byField}
        keyHint="Letters, digits, - _ and , only. Applications ask for the flag by this key; it cannot be changed later."
      />
      <Field label="Description" error={errors.byField['description']}>
        <textarea rows={2} value={input.description} onChange={(e) => set({ description: e.target.value })} />
      </Field>
      <fieldset className="choice-group">
        <legend>Type</legend>
        {TYPES.map(([type, label, about]) => (
          <label key={type} className="choice">
            <input type="radio" name={`${id}-type`} value={type} checked={input.type === type} onChange={() => set({ type })} aria-describedby={`${id}-${type}`} />
            <span>
              <strong>{label}</strong>
              <span className="muted choice-about" id={`${id}-${type}`}>
                {about}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <label className="switch">
        <input type="checkbox" role="switch" checked={input.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
        Enabled
      </label>
    </Dialog>
  );
}
