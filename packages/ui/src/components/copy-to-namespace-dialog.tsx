/**
 * "Copy to namespace…": picks another namespace and copies a flag (with its variants) or a segment
 * (with its constraints) into it through the namespace import route, which writes all of it in one
 * transaction or nothing. A key already taken there is refused before anything is sent, with a
 * link to what holds it; a finished copy links to itself. Only the namespaces the session may import
 * into are offered (locked with the reason when there is none); hidden on a read-only server.
 */
import type { Namespace } from '@ensign/core';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../api/client.js';
import { flags, namespaces, segments } from '../api/endpoints.js';
import { isHistoryKey, queryKeys } from '../api/query-keys.js';
import { type Lock, useLocks } from '../hooks/permissions.js';
import { useReadOnly } from '../hooks/read-only.js';
import { paths } from '../layout/namespace.js';
import { namespaceLabel } from '../lib/namespace-label.js';
import {
  copiedText,
  copyDocument,
  type CopyKind,
  type CopySource,
  copyTargets,
  existsMessage,
  keyOf,
  previewIsCopyOnly,
  refusedAsExisting,
  UNEXPECTED_PREVIEW,
} from '../lib/copy-document.js';
import { Dialog, DialogButtons } from './dialog.js';
import { Field } from './field.js';
import { ErrorBanner, Loading, MessageText } from './status.js';

type Outcome = { copied: boolean; target: Namespace };

/** Whether `key` is a `kind` of namespace `ns`: a 404 about it is "no"; any other failure is thrown. */
async function exists(kind: CopyKind, ns: string, key: string): Promise<boolean> {
  try {
    await (kind === 'flag' ? flags.get(ns, key) : segments.get(ns, key));
    return true;
  } catch (err) {
    // A 404 about the namespace itself (deleted meanwhile) is not "free to copy".
    if (err instanceof ApiError && err.status === 404 && err.serviceMessage.startsWith(`${kind} `)) return false;
    throw err;
  }
}

/** Checks the target, previews the import (which must create the one key and touch nothing else), then imports. */
async function copy(source: CopySource, target: Namespace): Promise<Outcome> {
  const key = keyOf(source);
  if (await exists(source.kind, target.key, key)) return { copied: false, target };
  const document = { text: copyDocument(source), format: 'json' as const };
  try {
    const preview = await namespaces.import(target.key, document, 'add', true);
    if (!previewIsCopyOnly(preview, source.kind, key)) throw new Error(UNEXPECTED_PREVIEW);
    await namespaces.import(target.key, document, 'add', false);
  } catch (err) {
    // Created there since the check: the import refused it whole.
    if (err instanceof ApiError && refusedAsExisting(err.serviceMessage, source.kind, key)) return { copied: false, target };
    throw err;
  }
  return { copied: true, target };
}

/** The other namespaces, those the session may copy into, and the lock of the button when there are others but none of them. */
function useCopyTargets(ns: string, kind: CopyKind, enabled: boolean): { list: UseQueryResult<Namespace[]>; targets: Namespace[]; lock: Lock } {
  const list = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list, enabled });
  const lockOf = useLocks();
  const others = copyTargets(list.data ?? [], ns);
  const targets = others.filter((t) => !lockOf(`${kind}.copy`, t.key).on);
  const first = others[0];
  const lock = first !== undefined && targets.length === 0 ? lockOf(`${kind}.copy`, first.key) : { on: false, hint: undefined };
  return { list, targets, lock };
}

export interface CopyToNamespaceDialogProps {
  open: boolean;
  onClose: () => void;
  /** The namespace the flag or segment is in (not offered as a target). */
  ns: string;
  source: CopySource;
  /** What the copy takes along and what it leaves behind. */
  about: ReactNode;
}

export function CopyToNamespaceDialog({ open, onClose, ns, source, about }: CopyToNamespaceDialogProps) {
  const queries = useQueryClient();
  const { list, targets } = useCopyTargets(ns, source.kind, open);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const target = targets.find((t) => t.key === chosen) ?? targets[0];
  const key = keyOf(source);
  const noun = source.kind;

  const run = useMutation({
    mutationFn: (to: Namespace) => copy(source, to),
    onSuccess: async ({ copied, target: to }) => {
      if (copied) await queries.invalidateQueries({ predicate: (q) => (q.queryKey[0] === 'ns' && q.queryKey[1] === to.key) || isHistoryKey(q.queryKey) });
    },
  });
  const { reset } = run;
  useEffect(() => {
    if (!open) return;
    setChosen(undefined);
    reset();
  }, [open, reset]);

  // Following a link out of the dialog (to the copy, or to what holds the key) closes it.
  const { pathname } = useLocation();
  const opened = useRef(pathname);
  useEffect(() => {
    if (!open) opened.current = pathname;
    else if (pathname !== opened.current) onClose();
  }, [open, pathname, onClose]);

  const done = run.data?.copied === true ? run.data.target : undefined;
  const taken = run.data?.copied === false ? run.data.target : undefined;
  const submit = () => {
    if (target !== undefined && done === undefined && !run.isPending) run.mutate(target);
  };

  return (
    <Dialog
      open={open}
      title={`Copy ${noun} to namespace`}
      onClose={onClose}
      onSubmit={submit}
      footer={
        done !== undefined ? (
          <button type="button" className="button button-primary" onClick={onClose}>
            Done
          </button>
        ) : (
          <DialogButtons onCancel={onClose} label={`Copy ${noun}`} busy={run.isPending} busyLabel="Copying…" disabled={target === undefined || run.isPending} />
        )
      }
    >
      <div className="copy-about">{about}</div>
      {list.isPending ? (
        <Loading label="Loading the namespaces…" />
      ) : list.isError ? (
        <ErrorBanner error={list.error} onRetry={() => void list.refetch()} />
      ) : target === undefined ? (
        <p className="notice" role="note">
          There is no other namespace to copy to. <Link to={paths.namespaces()}>Create a namespace</Link> first.
        </p>
      ) : done !== undefined ? (
        <p role="status">
          {copiedText(noun, key, done)} <Link to={noun === 'flag' ? paths.flag(done.key, key) : paths.segment(done.key, key)}>Open the copy</Link>
        </p>
      ) : (
        <>
          <Field label="Namespace" hint={`The ${noun} keeps its key “${key}” there.`}>
            <select
              value={target.key}
              disabled={run.isPending}
              onChange={(e) => {
                setChosen(e.target.value);
                reset();
              }}
            >
              {targets.map((t) => (
                <option key={t.key} value={t.key}>
                  {namespaceLabel(t)}
                </option>
              ))}
            </select>
          </Field>
          {taken !== undefined && (
            <p className="field-error" role="alert">
              <MessageText message={existsMessage(noun, key, taken)} />
            </p>
          )}
          <ErrorBanner error={run.error} />
        </>
      )}
    </Dialog>
  );
}

/** The "Copy to namespace…" button and its dialog; nothing on a read-only server. */
export function CopyToNamespaceButton({ ns, source, about }: { ns: string; source: CopySource; about: ReactNode }) {
  const readOnly = useReadOnly();
  const [open, setOpen] = useState(false);
  const { lock } = useCopyTargets(ns, source.kind, !readOnly.on);
  if (readOnly.on) return null;
  return (
    <>
      <button type="button" className="button" disabled={lock.on} title={lock.hint} onClick={() => setOpen(true)}>
        Copy to namespace…
      </button>
      <CopyToNamespaceDialog open={open} onClose={() => setOpen(false)} ns={ns} source={source} about={about} />
    </>
  );
}
