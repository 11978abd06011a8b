/** The flag's name and description, edited in place (only shown on a read-only server or to a session that may not edit flags); what was typed stays until it is saved. */
import type { Flag } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { flags } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { formErrors } from '../../hooks/form-errors.js';
import { useLock } from '../../hooks/permissions.js';
import { flagUpdate } from './flag-update.js';

interface Draft {
  name: string;
  description: string;
}

export function FlagDetailsCard({ ns, flag }: { ns: string; flag: Flag }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const lock = useLock('flag.update', ns);
  // Undefined until something is typed: until then the form follows the flag as read.
  const [draft, setDraft] = useState<Draft | undefined>(undefined);
  const value = draft ?? { name: flag.name, description: flag.description };
  const dirty = draft !== undefined && (draft.name !== flag.name || draft.description !== flag.description);
  const save = useMutation({
    mutationFn: (changes: Draft) => flags.update(ns, flag.key, flagUpdate(flag, changes)),
    onSuccess: async (saved) => {
      setDraft(undefined);
      if (isDrafted(saved)) return;
      queryClient.setQueryData<Flag>(queryKeys.flag(ns, flag.key), (old) => (old === undefined ? saved : { ...old, ...saved }));
      toast('Details saved');
      await refreshList(queryClient, queryKeys.flags(ns));
    },
  });
  const errors = formErrors(save.error, ['name', 'description']);
  const edit = (changes: Partial<Draft>) => setDraft({ ...value, ...changes });

  return (
    <section className="card" aria-labelledby="flag-details-title">
      <div className="card-header">
        <h2 id="flag-details-title">Details</h2>
      </div>
      <form
        className="card-body"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (dirty && !lock.on) save.mutate(value);
        }}
      >
        <ErrorBanner error={errors.general} />
        <div className="row">
          <Field label="Name" error={errors.byField['name']}>
            <input value={value.name} autoComplete="off" readOnly={lock.on} title={lock.hint} onChange={(e) => edit({ name: e.target.value })} />
          </Field>
          <Field label="Description" error={errors.byField['description']}>
            <input value={value.description} autoComplete="off" readOnly={lock.on} title={lock.hint} onChange={(e) => edit({ description: e.target.value })} />
          </Field>
        </div>
        {!lock.on && (
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={!dirty || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save details'}
            </button>
            {dirty && (
              <button
                type="button"
                className="button button-ghost"
                onClick={() => {
                  setDraft(undefined);
                  save.reset();
                }}
              >
                Discard changes
              </button>
            )}
          </div>
        )}
      </form>
    </section>
  );
}
