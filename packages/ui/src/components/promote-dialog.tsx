/**
 * "Promote to…": a change request of another namespace that makes it match this one, for every
 * flag and segment or for those chosen. The preview (what the request would propose, and the diff it would
 * make there now) shows as soon as a target is chosen; creating it opens the request, a draft to
 * submit for review.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { changeRequests, type PromotionInput } from '../api/change-requests.js';
import { ApiError } from '../api/client.js';
import { flags as flagsApi, namespaces, segments as segmentsApi } from '../api/endpoints.js';
import { queryKeys } from '../api/query-keys.js';
import { useReadOnly } from '../hooks/read-only.js';
import { paths } from '../layout/namespace.js';
import { countNoun } from '../lib/count-noun.js';
import { namespaceLabel } from '../lib/namespace-label.js';
import { ChangeDiffList } from './change-diff-list.js';
import { Dialog, DialogButtons } from './dialog.js';
import { Field } from './field.js';
import { KeyText } from './key-text.js';
import { EmptyState, ErrorBanner, Loading } from './status.js';
import './promote-dialog.css';

export interface PromoteDialogProps {
  /** The namespace promoted from. */
  from: string;
  open: boolean;
  onClose: () => void;
  onCreated: (target: string, id: string) => void;
}

/** The service's answer to a promotion that would change nothing. */
const isAlreadyMatching = (error: unknown): boolean => error instanceof ApiError && error.status === 400 && /already matches/.test(error.serviceMessage);

/** Checkboxes of the source's flags or segments, by key. */
function KeyChooser({ legend, query, chosen, onToggle }: { legend: string; query: UseQueryResult<ReadonlyArray<{ key: string }>>; chosen: ReadonlySet<string>; onToggle: (key: string, on: boolean) => void }) {
  if (query.data === undefined) return query.isPending ? <Loading label={`Loading the ${legend.toLowerCase()}…`} /> : <ErrorBanner error={query.error} />;
  return (
    <fieldset className="promote-keys">
      <legend>{legend}</legend>
      {query.data.length === 0 ? (
        <span className="muted">None</span>
      ) : (
        query.data.map((item) => (
          <label key={item.key} className="promote-key">
            <input type="checkbox" checked={chosen.has(item.key)} onChange={(e) => onToggle(item.key, e.target.checked)} />
            <KeyText value={item.key} />
          </label>
        ))
      )}
    </fieldset>
  );
}

export function PromoteDialog({ from, open, onClose, onCreated }: PromoteDialogProps) {
  const id = useId();
  const queries = useQueryClient();
  const [target, setTarget] = useState('');
  const [some, setSome] = useState(false);
  const [chosen, setChosen] = useState<{ flags: ReadonlySet<string>; segments: ReadonlySet<string> }>({ flags: new Set(), segments: new Set() });
  const [title, setTitle] = useState<string | undefined>(undefined);
  const all = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list, enabled: open });
  const sourceFlags = useQuery({ queryKey: queryKeys.flags(from), queryFn: () => flagsApi.list(from), enabled: open && some });
  const sourceSegments = useQuery({ queryKey: queryKeys.segments(from), queryFn: () => segmentsApi.list(from), enabled: open && some });
  const targets = (all.data ?? []).filter((n) => n.key !== from);
  const selection = useMemo(() => (some ? { flags: [...chosen.flags].sort(), segments: [...chosen.segments].sort() } : undefined), [some, chosen]);
  const input: PromotionInput = {
    promoteFrom: from,
    ...(selection === undefined ? {} : { ...(selection.flags.length > 0 ? { flags: selection.flags } : {}), ...(selection.segments.length > 0 ? { segments: selection.segments } : {}) }),
  };
  const ready = target !== '' && (selection === undefined || selection.flags.length + selection.segments.length > 0);
  const preview = useQuery({
    queryKey: [...queryKeys.namespace(target), 'promotion', from, selection ?? null],
    queryFn: ({ signal }) => changeRequests.previewPromotion(target, input, signal),
    enabled: open && ready,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const shownTitle = title ?? (target === '' ? '' : `Promote ${from} to ${target}`);
  const create = useMutation({
    mutationFn: () => changeRequests.promote(target, { ...input, title: shownTitle.trim() === '' ? `Promote ${from} to ${target}` : shownTitle.trim() }),
    onSuccess: (created) => {
      void queries.invalidateQueries({ queryKey: queryKeys.namespace(created.namespaceKey) });
      onClose();
      onCreated(created.namespaceKey, created.id);
    },
  });
  // Only an answer for what is chosen now counts: the one shown meanwhile may be of an earlier choice.
  const changes = ready && !preview.isError && !preview.isPlaceholderData ? preview.data?.changes.length : undefined;
  const toggle = (kind: 'flags' | 'segments', key: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old[kind]);
      if (on) next.add(key);
      else next.delete(key);
      return { ...old, [kind]: next };
    });
  const matches = isAlreadyMatching(preview.error);

  let result;
  if (!ready) result = <p className="muted">{target === '' ? 'Choose the namespace to promote to.' : 'Choose at least one flag or segment.'}</p>;
  else if (preview.isPending) result = <Loading label={`Comparing ${target} with ${from}…`} />;
  else if (matches || preview.data?.changes.length === 0)
    result = <EmptyState title="Nothing to promote">{`${target} already matches ${from}${selection === undefined ? '' : ' for what is chosen'}.`}</EmptyState>;
  else if (preview.data === undefined || preview.isError) result = <ErrorBanner error={preview.error} onRetry={() => void preview.refetch()} />;
  else
    result = (
      <div className={preview.isPlaceholderData || preview.isFetching ? 'promote-preview stale' : 'promote-preview'} aria-busy={preview.isFetching}>
        <p className="promote-count">
          <strong>{countNoun(preview.data.changes.length, 'change')}</strong> to {target}:
        </p>
        <ChangeDiffList ns={target} records={preview.data.diff} label="Preview" />
      </div>
    );

  return (
    <Dialog
      open={open}
      wide
      title={`Promote ${from} to…`}
      onClose={onClose}
      onSubmit={() => {
        if (changes !== undefined && changes > 0 && !create.isPending) create.mutate();
      }}
      footer={<DialogButtons onCancel={onClose} label="Create change request" busy={create.isPending} busyLabel="Creating…" disabled={changes === undefined || changes === 0 || create.isPending} />}
    >
      <ErrorBanner error={create.error ?? all.error} />
      <div className="row">
        <Field label="Target namespace">
          <select value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="" disabled>
              {all.isPending ? 'Loading…' : targets.length === 0 ? 'No other namespace' : 'Choose…'}
            </option>
            {targets.map((n) => (
              <option key={n.key} value={n.key}>
                {namespaceLabel(n)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Title">
          <input value={shownTitle} autoComplete="off" placeholder={`Promote ${from} to …`} onChange={(e) => setTitle(e.target.value)} />
        </Field>
      </div>
      <fieldset className="choice-group">
        <legend>What to promote</legend>
        <label className="choice">
          <input type="radio" name={`${id}-which`} checked={!some} onChange={() => setSome(false)} />
          <span>Every flag and segment</span>
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-which`} checked={some} onChange={() => setSome(true)} />
          <span>Only the flags and segments chosen</span>
        </label>
      </fieldset>
      {some && (
        <>
          <KeyChooser legend="Flags" query={sourceFlags} chosen={chosen.flags} onToggle={(key, on) => toggle('flags', key, on)} />
          <KeyChooser legend="Segments" query={sourceSegments} chosen={chosen.segments} onToggle={(key, on) => toggle('segments', key, on)} />
        </>
      )}
      <section className="promote-result" aria-label="Promotion preview">
        {result}
      </section>
    </Dialog>
  );
}

/** The "Promote to…" button and its dialog; the request made is opened. Locked on a read-only server. */
export function PromoteAction({ from }: { from: string }) {
  const navigate = useNavigate();
  const readOnly = useReadOnly();
  const [dialog, setDialog] = useState({ open: false, key: 0 });
  return (
    <>
      <button type="button" className="button" disabled={readOnly.on} title={readOnly.hint} onClick={() => setDialog((d) => ({ open: true, key: d.key + 1 }))}>
        Promote to…
      </button>
      <PromoteDialog
        key={dialog.key}
        from={from}
        open={dialog.open}
        onClose={() => setDialog((d) => ({ ...d, open: false }))}
        onCreated={(target, id) => void navigate(paths.changeRequest(target, id))}
      />
    </>
  );
}
