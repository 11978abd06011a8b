/** The namespace's review policy: how many approvals its changes need (0: none, edits apply at once), edited in place. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { changePolicies } from '../../api/change-requests.js';
import { queryKeys } from '../../api/query-keys.js';
import { Field } from '../../components/field.js';
import { ErrorBanner, Loading } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useChangePolicy } from '../../hooks/change-policy.js';
import { formErrors } from '../../hooks/form-errors.js';
import { useLock } from '../../hooks/permissions.js';
import { countNoun } from '../../lib/count-noun.js';

/** The most approvals a policy may ask for. */
const MAX_APPROVALS = 10;

export function ChangePolicyCard({ ns }: { ns: string }) {
  const queries = useQueryClient();
  const toast = useToast();
  const policy = useChangePolicy(ns);
  const lock = useLock('namespace.update', ns);
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const current = policy.data?.requiredApprovals ?? 0;
  const value = typed ?? String(current);
  const number = Number(value);
  const valid = value.trim() !== '' && Number.isInteger(number) && number >= 0 && number <= MAX_APPROVALS;
  const save = useMutation({
    mutationFn: (requiredApprovals: number) => changePolicies.set(ns, requiredApprovals),
    onSuccess: (saved) => {
      queries.setQueryData(queryKeys.changePolicy(ns), saved);
      setTyped(undefined);
      toast(saved.requiredApprovals === 0 ? `${ns} is no longer protected: edits apply at once` : `Changes to ${ns} now need ${countNoun(saved.requiredApprovals, 'approval')}`);
      void queries.invalidateQueries({ queryKey: queryKeys.namespace(ns) });
    },
  });
  const errors = formErrors(save.error, { requiredApprovals: 'requiredApprovals' });

  return (
    <section className="card" aria-labelledby="change-policy-title">
      <div className="card-header">
        <div>
          <h2 id="change-policy-title">Review policy</h2>
          <p>
            {current === 0
              ? `Edits of ${ns} apply at once. With approvals required, every edit goes into a change request that others review.`
              : `Every change to ${ns} goes into a change request, applied after ${current === 1 ? 'someone other than its author approves it' : `${current} people other than its author approve it`}.`}
          </p>
        </div>
      </div>
      {policy.isPending ? (
        <Loading label="Loading the policy…" />
      ) : (
        <form
          className="card-body change-policy-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (valid && number !== current && !lock.on) save.mutate(number);
          }}
        >
          <ErrorBanner error={policy.error ?? errors.general} />
          <Field label="Required approvals" hint={`0 turns review off; at most ${MAX_APPROVALS}.`} error={errors.byField['requiredApprovals'] ?? (valid ? undefined : `A whole number from 0 to ${MAX_APPROVALS}`)}>
            <input type="number" inputMode="numeric" min={0} max={MAX_APPROVALS} step={1} value={value} readOnly={lock.on} title={lock.hint} onChange={(e) => setTyped(e.target.value)} />
          </Field>
          {!lock.on && (
            <div className="form-actions">
              <button type="submit" className="button button-primary" disabled={!valid || number === current || save.isPending}>
                {save.isPending ? 'Saving…' : 'Save policy'}
              </button>
            </div>
          )}
        </form>
      )}
    </section>
  );
}
