/** The "New segment" dialog: name, key (suggested from the name), description and match type; opens the segment once created. */
import type { MatchType } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { segments } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { NameKeyFields } from '../../components/name-key-fields.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { shownErrors } from '../../api/user-error.js';
import { useFreshRefusal } from '../../hooks/form-errors.js';
import { changesOf, hasProblems, KEY_HINT, nameKeyProblems, type Problems, withoutProblem } from '../../lib/form-checks.js';
import { paths } from '../../layout/namespace.js';
import { MatchTypeSelect } from './match-type-select.js';

const EMPTY = { key: '', name: '', description: '', matchType: 'ALL_MATCH_TYPE' as MatchType };

export function NewSegmentDialog({ ns, open, onClose }: { ns: string; open: boolean; onClose: () => void }) {
  const [form, setForm] = useState(EMPTY);
  const [checks, setChecks] = useState<Problems>({});
  const queries = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const create = useMutation({
    mutationFn: () => segments.create(ns, { ...form, key: form.key.trim() }),
    onSuccess: async (segment) => {
      // In a draft: the segment is not there yet, the draft is.
      if (isDrafted(segment)) {
        onClose();
        void navigate(paths.changeRequest(ns, segment.request.id));
        return;
      }
      await refreshList(queries, queryKeys.segments(ns));
      toast(`Segment "${segment.key}" created`);
      onClose();
      void navigate(paths.segment(ns, segment.key));
    },
  });
  const { reset } = create;

  useEffect(() => {
    if (open) {
      setForm(EMPTY);
      setChecks({});
      reset();
    }
  }, [open, reset]);

  const refused = shownErrors(create.error, ['key', 'name', 'description', 'matchType']);
  const refusal = useFreshRefusal(create.error);
  const refusedNow = refusal.fresh(refused.byField);
  const errorOf = (field: string) => checks[field] ?? refusedNow[field];
  const edit = (changes: Partial<typeof EMPTY>) => {
    const changed = Object.keys(changesOf(form, changes));
    setChecks((old) => changed.reduce(withoutProblem, old));
    refusal.edited(...changed);
    setForm((f) => ({ ...f, ...changes }));
  };
  const submit = () => {
    const found = nameKeyProblems(form);
    setChecks(found);
    if (!hasProblems(found)) create.mutate();
  };
  return (
    <Dialog
      open={open}
      title="New segment"
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogButtons onCancel={onClose} label="Create segment" busy={create.isPending} busyLabel="Creating…" />}
    >
      <ErrorBanner error={refused.general} />
      <NameKeyFields
        value={form}
        onChange={edit}
        errors={{ name: errorOf('name'), key: errorOf('key') }}
        keyHint={`${KEY_HINT} Flags and SDKs refer to it; it cannot be changed later.`}
      />
      <Field label="Description" error={errorOf('description')}>
        <textarea rows={2} value={form.description} onChange={(e) => edit({ description: e.target.value })} />
      </Field>
      <Field label="Match type" error={errorOf('matchType')}>
        <MatchTypeSelect value={form.matchType} onChange={(matchType) => edit({ matchType })} />
      </Field>
    </Dialog>
  );
}
