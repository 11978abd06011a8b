/** Name, description and match type of a segment (only shown on a read-only server or to a session that may not edit segments); a refused save keeps the edits and shows why. */
import type { MatchType, Segment } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { segments } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { formErrors } from '../../hooks/form-errors.js';
import { useLock } from '../../hooks/permissions.js';
import { MatchTypeSelect } from './match-type-select.js';

interface Details {
  name: string;
  description: string;
  matchType: MatchType;
}

const detailsOf = (segment: Segment): Details => ({ name: segment.name, description: segment.description, matchType: segment.matchType });

export function SegmentDetailsCard({ ns, segment }: { ns: string; segment: Segment }) {
  const [saved, setSaved] = useState<Details>(() => detailsOf(segment));
  const [form, setForm] = useState<Details>(saved);
  const queries = useQueryClient();
  const toast = useToast();
  const lock = useLock('segment.update', ns);
  const save = useMutation({
    mutationFn: () => segments.update(ns, segment.key, form),
    onSuccess: async (updated) => {
      // In a draft: the form goes back to what is applied.
      if (isDrafted(updated)) {
        setForm(saved);
        return;
      }
      const details = detailsOf(updated);
      setSaved(details);
      setForm(details);
      queries.setQueryData(queryKeys.segment(ns, segment.key), updated);
      await refreshList(queries, queryKeys.segments(ns));
      toast('Segment saved');
    },
  });
  const dirty = form.name !== saved.name || form.description !== saved.description || form.matchType !== saved.matchType;
  const errors = formErrors(save.error, ['name', 'description', 'matchType']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!lock.on) save.mutate();
  };

  return (
    <section className="card" aria-labelledby="details-title">
      <div className="card-header">
        <h2 id="details-title">Details</h2>
      </div>
      <form className="card-body details-form" onSubmit={submit} noValidate>
        <ErrorBanner error={errors.general} />
        <div className="row">
          <Field label="Name" error={errors.byField['name']}>
            <input value={form.name} autoComplete="off" readOnly={lock.on} title={lock.hint} onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} />
          </Field>
          <Field label="Match type" error={errors.byField['matchType']}>
            <MatchTypeSelect value={form.matchType} disabled={lock.on} title={lock.hint} onChange={(matchType) => setForm((f) => ({ ...f, matchType }))} />
          </Field>
        </div>
        <Field label="Description" error={errors.byField['description']}>
          <textarea rows={2} value={form.description} readOnly={lock.on} title={lock.hint} onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))} />
        </Field>
        {!lock.on && (
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={!dirty || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save changes'}
            </button>
            {dirty && (
              <button type="button" className="button button-ghost" onClick={() => setForm(saved)}>
                Discard changes
              </button>
            )}
          </div>
        )}
      </form>
    </section>
  );
}
