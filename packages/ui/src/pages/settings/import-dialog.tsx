/**
 * Imports a Flipt document (a chosen file or pasted text) into a namespace: the service previews
 * what would change (a dry run), and only that preview can be applied. Changing the document or
 * the mode asks for a new preview; the service's refusal, which names the place in the document,
 * is shown under the document.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../api/client.js';
import { namespaces } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { useToast } from '../../components/toast.js';
import { documentFormat, IMPORT_MODES, type ImportMode, type ImportSummary, previewHeadline } from '../../lib/document-import.js';
import { otherNamespaceMessage, otherNamespaceOf, withoutNamespace } from '../../lib/document-retarget.js';
import { ImportPreview } from './import-preview.js';
import './import-dialog.css';

export interface ImportDialogProps {
  open: boolean;
  /** The namespace imported into. */
  namespaceKey: string;
  onClose: () => void;
}

interface Draft {
  text: string;
  /** The chosen file's name, while the text is that file's. */
  fileName: string | undefined;
  mode: ImportMode;
}

const EMPTY: Draft = { text: '', fileName: undefined, mode: 'add' };

/** What a preview was made of: the preview applies only while the draft is still this. */
const draftKey = (draft: Draft): string => `${draft.mode}\n${draft.fileName ?? ''}\n${draft.text}`;

export function ImportDialog({ open, namespaceKey, onClose }: ImportDialogProps) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [preview, setPreview] = useState<{ of: string; summary: ImportSummary } | undefined>(undefined);
  // A document naming another namespace, found in the browser: the service is not asked.
  const [mismatch, setMismatch] = useState<{ of: string; named: string } | undefined>(undefined);
  const queries = useQueryClient();
  const toast = useToast();

  const send = (dryRun: boolean) => namespaces.import(namespaceKey, { text: draft.text, format: documentFormat(draft.text, draft.fileName) }, draft.mode, dryRun);
  const dryRun = useMutation({
    mutationFn: async () => ({ of: draftKey(draft), summary: await send(true) }),
    onSuccess: setPreview,
  });
  const apply = useMutation({
    mutationFn: () => send(false),
    onSuccess: async (summary) => {
      await Promise.all([queries.invalidateQueries({ queryKey: queryKeys.namespace(namespaceKey) }), queries.invalidateQueries({ queryKey: queryKeys.namespaces })]);
      toast(`Imported into "${namespaceKey}": ${previewHeadline(summary)}`);
      onClose();
    },
  });
  const { reset: resetDryRun } = dryRun;
  const { reset: resetApply } = apply;

  useEffect(() => {
    if (!open) return;
    setDraft(EMPTY);
    setPreview(undefined);
    setMismatch(undefined);
    resetDryRun();
    resetApply();
  }, [open, namespaceKey, resetDryRun, resetApply]);

  const edit = (change: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...change }));
    resetDryRun();
    resetApply();
  };
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    // Cleared, so choosing the same file again (after editing its text) reads it again.
    input.value = '';
    if (file !== undefined) edit({ text: await file.text(), fileName: file.name });
  };

  // A document of another namespace is refused; removing its namespace is the way to mean it.
  const retarget = async () => {
    edit({ text: await withoutNamespace(draft.text, documentFormat(draft.text, draft.fileName)) });
  };
  const named = mismatch !== undefined && mismatch.of === draftKey(draft) ? mismatch.named : undefined;
  const otherNamespace = named !== undefined || (dryRun.error instanceof ApiError && dryRun.error.field === 'namespace');

  const current = preview !== undefined && preview.of === draftKey(draft) ? preview.summary : undefined;
  const busy = dryRun.isPending || apply.isPending;
  const error = apply.error?.message ?? dryRun.error?.message ?? (named === undefined ? undefined : otherNamespaceMessage(named, namespaceKey));
  // The preview or the refusal may be out of sight in a long dialog: bring whichever came into view.
  const documentRef = useRef<HTMLDivElement>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (current !== undefined) previewRef.current?.scrollIntoView({ block: 'start' });
    else if (error !== undefined) documentRef.current?.scrollIntoView({ block: 'nearest' });
  }, [current, error]);

  const submit = async () => {
    if (draft.text.trim() === '' || busy) return;
    if (current !== undefined) {
      apply.mutate();
      return;
    }
    const of = draftKey(draft);
    const other = await otherNamespaceOf(draft.text, documentFormat(draft.text, draft.fileName), namespaceKey);
    if (other !== undefined) setMismatch({ of, named: other });
    else dryRun.mutate();
  };

  return (
    <Dialog
      open={open}
      wide
      title={`Import into ${namespaceKey}`}
      onClose={onClose}
      onSubmit={() => void submit()}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          {current === undefined ? (
            <button type="submit" className="button button-primary" disabled={busy || draft.text.trim() === ''}>
              {dryRun.isPending ? 'Previewing…' : 'Preview'}
            </button>
          ) : (
            <button type="submit" className="button button-primary" disabled={busy}>
              {apply.isPending ? 'Importing…' : 'Apply'}
            </button>
          )}
        </>
      }
    >
      <div className="import-source">
        <input id={`${id}-file`} className="import-file visually-hidden" type="file" accept=".yaml,.yml,.json,application/yaml,application/json" onChange={(e) => void choose(e)} />
        <label className="button button-small" htmlFor={`${id}-file`}>
          Choose file…
        </label>
        <span className="muted">{draft.fileName ?? 'or paste the document below'}</span>
      </div>
      <div ref={documentRef}>
        <Field label="Document" hint="A Flipt export (YAML or JSON) of one namespace; its namespace, if it names one, must be this one." error={error}>
          <textarea className="import-text" data-autofocus rows={8} spellCheck={false} value={draft.text} onChange={(e) => edit({ text: e.target.value, fileName: undefined })} />
        </Field>
      </div>
      {otherNamespace && (
        <p className="import-retarget">
          <button type="button" className="button button-small" onClick={() => void retarget()}>
            Import into {namespaceKey} instead
          </button>
          <span className="muted">removes the document’s namespace, so it imports here</span>
        </p>
      )}
      <fieldset className="choice-group">
        <legend>Flags and segments already in {namespaceKey}</legend>
        {IMPORT_MODES.map(([mode, label, about]) => (
          <label key={mode} className="choice">
            <input type="radio" name={`${id}-mode`} value={mode} checked={draft.mode === mode} onChange={() => edit({ mode })} aria-describedby={`${id}-${mode}`} />
            <span>
              <strong>{label}</strong>
              <span className="muted choice-about" id={`${id}-${mode}`}>
                {about}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <div ref={previewRef}>{current !== undefined && <ImportPreview summary={current} />}</div>
    </Dialog>
  );
}
