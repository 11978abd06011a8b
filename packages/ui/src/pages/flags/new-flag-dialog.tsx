/**
 * "New flag": name, key (suggested from the name until the user makes it their own), description,
 * type and whether it starts enabled. Missing or malformed fields are shown all at once before
 * anything is sent; the service's refusals show next to their field, with what was typed kept.
 */
import type { Flag, FlagType } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { flags, type FlagInput } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { paths } from '../../layout/namespace.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { ErrorBanner } from '../../components/status.js';
import { Field } from '../../components/field.js';
import { NameKeyFields } from '../../components/name-key-fields.js';
import { shownErrors } from '../../api/user-error.js';
import { useFreshRefusal } from '../../hooks/form-errors.js';
import { changesOf, hasProblems, KEY_HINT, nameKeyProblems, type Problems, withoutProblem } from '../../lib/form-checks.js';

const TYPES: ReadonlyArray<readonly [FlagType, string, string]> = [
  ['VARIANT_FLAG_TYPE', 'Variant', 'Returns one of several variants, chosen by rules.'],
  ['BOOLEAN_FLAG_TYPE', 'Boolean', 'Returns true or false, chosen by rollouts.'],
];

export function NewFlagDialog({ ns, open, onClose, onCreated }: { ns: string; open: boolean; onClose: () => void; onCreated: (flag: Flag) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = useId();
  const [input, setInput] = useState<FlagInput>({ key: '', name: '', description: '', type: 'VARIANT_FLAG_TYPE', enabled: false });
  const create = useMutation({
    mutationFn: (value: FlagInput) => flags.create(ns, value),
    onSuccess: async (flag) => {
      // In a draft: the flag is not there yet, the draft is.
      if (isDrafted(flag)) {
        onClose();
        void navigate(paths.changeRequest(ns, flag.request.id));
        return;
      }
      queryClient.setQueryData(queryKeys.flag(ns, flag.key), flag);
      await refreshList(queryClient, queryKeys.flags(ns));
      onCreated(flag);
    },
  });
  const [checks, setChecks] = useState<Problems>({});
  const refused = shownErrors(create.error, ['key', 'name', 'description']);
  const refusal = useFreshRefusal(create.error);
  const refusedNow = refusal.fresh(refused.byField);
  const errorOf = (field: string) => checks[field] ?? refusedNow[field];
  const set = (changes: Partial<FlagInput>) => {
    setInput((old) => ({ ...old, ...changes }));
    setChecks((old) => Object.keys(changes).reduce(withoutProblem, old));
    refusal.edited(...Object.keys(changes));
  };
  const submit = () => {
    const found = nameKeyProblems(input);
    setChecks(found);
    if (!hasProblems(found)) create.mutate({ ...input, key: input.key.trim() });
  };

  return (
    <Dialog
      open={open}
      title="New flag"
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogButtons onCancel={onClose} label="Create flag" busy={create.isPending} busyLabel="Creating…" />}
    >
      <ErrorBanner error={refused.general} />
      <NameKeyFields
        value={input}
        onChange={(nameAndKey) => set(changesOf(input, nameAndKey))}
        errors={{ name: errorOf('name'), key: errorOf('key') }}
        keyHint={`${KEY_HINT} Applications ask for the flag by this key; it cannot be changed later.`}
      />
      <Field label="Description" error={errorOf('description')}>
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
