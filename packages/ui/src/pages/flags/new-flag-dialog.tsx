/**
 * "New flag": key (suggested from the name until the key is typed), name, description, type and
 * whether it starts enabled. The service's refusals show next to their field, with what was typed kept.
 */
import type { Flag, FlagType } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { flags, type FlagInput } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog } from '../../components/dialog.js';
import { ErrorBanner } from '../../components/status.js';
import { Field } from '../../components/field.js';
import { formErrors } from '../../hooks/form-errors.js';
import { suggestKey } from '../../lib/key-suggestion.js';

const TYPES: ReadonlyArray<readonly [FlagType, string, string]> = [
  ['VARIANT_FLAG_TYPE', 'Variant', 'Returns one of several variants, chosen by rules.'],
  ['BOOLEAN_FLAG_TYPE', 'Boolean', 'Returns true or false, chosen by rollouts.'],
];

export function NewFlagDialog({ ns, open, onClose, onCreated }: { ns: string; open: boolean; onClose: () => void; onCreated: (flag: Flag) => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [input, setInput] = useState<FlagInput>({ key: '', name: '', description: '', type: 'VARIANT_FLAG_TYPE', enabled: false });
  const [keyTyped, setKeyTyped] = useState(false);
  const create = useMutation({
    mutationFn: (value: FlagInput) => flags.create(ns, value),
    onSuccess: async (flag) => {
      queryClient.setQueryData(queryKeys.flag(ns, flag.key), flag);
      await queryClient.invalidateQueries({ queryKey: queryKeys.flags(ns) });
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
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create flag'}
          </button>
        </>
      }
    >
      <ErrorBanner error={errors.general} />
      <Field label="Name" error={errors.byField['name']}>
        <input
          value={input.name}
          autoFocus
          autoComplete="off"
          onChange={(e) => set({ name: e.target.value, ...(keyTyped ? {} : { key: suggestKey(e.target.value) }) })}
        />
      </Field>
      <Field label="Key" error={errors.byField['key']} hint="Letters, digits, - _ and , only. Applications ask for the flag by this key; it cannot be changed later.">
        <input
          className="mono"
          value={input.key}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            setKeyTyped(e.target.value !== '');
            set({ key: e.target.value });
          }}
        />
      </Field>
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
