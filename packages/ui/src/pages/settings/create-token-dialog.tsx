/**
 * Creates a static token: name, description, expiry and the namespace it is limited to. On
 * success the dialog shows the token once; closing it returns to the list, which has it already.
 * A refused save keeps what was typed and shows the service's message beside the field it names.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { auth, namespaces } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { Dialog } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { formErrors } from '../../hooks/form-errors.js';
import { namespaceLabel } from '../../lib/namespace-label.js';
import { expiryOf } from '../../lib/token-expiry.js';
import { ExpiryField } from './expiry-field.js';
import { TokenReveal } from './token-reveal.js';

/** The service's field names → the form's. */
const FIELDS = { name: 'name', description: 'description', expiresAt: 'expiry', namespaceKey: 'namespace' } as const;
type FormField = (typeof FIELDS)[keyof typeof FIELDS];

export function CreateTokenDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [day, setDay] = useState('');
  const [namespace, setNamespace] = useState('');
  const [checks, setChecks] = useState<Partial<Record<FormField, string>>>({});
  /** Fields changed since the last attempt: their old error no longer applies. */
  const [edited, setEdited] = useState<ReadonlySet<FormField>>(new Set());
  const edit = (field: FormField) => setEdited((fields) => (fields.has(field) ? fields : new Set(fields).add(field)));
  const spaces = useQuery({ queryKey: queryKeys.namespaces, queryFn: namespaces.list, enabled: open });

  const create = useMutation({
    mutationFn: auth.createToken,
    onSuccess: () => queries.invalidateQueries({ queryKey: queryKeys.tokens }),
  });
  const refused = formErrors(create.error, FIELDS);
  const errorOf = (field: FormField): string | undefined => (edited.has(field) ? undefined : (checks[field] ?? refused.byField[field]));
  // A token being created is not abandoned: its one showing follows.
  const close = () => {
    if (!create.isPending) onClose();
  };

  const submit = () => {
    if (create.isPending) return;
    create.reset();
    const expiry = expiryOf(day, new Date());
    const found: Partial<Record<FormField, string>> = {};
    if (name.trim() === '') found.name = 'Give the token a name, such as the script or service that uses it';
    if (!expiry.ok) found.expiry = expiry.error;
    setChecks(found);
    setEdited(new Set());
    if (Object.keys(found).length > 0 || !expiry.ok) return;
    create.mutate({
      name: name.trim(),
      description: description.trim(),
      ...(expiry.expiresAt === undefined ? {} : { expiresAt: expiry.expiresAt }),
      ...(namespace === '' ? {} : { namespaceKey: namespace }),
    });
  };

  if (create.isSuccess) {
    return (
      <Dialog
        open={open}
        title="Token created"
        onClose={onClose}
        footer={
          <button type="button" className="button" onClick={onClose}>
            Done
          </button>
        }
      >
        <TokenReveal clientToken={create.data.clientToken} name={name.trim()} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      title="Create token"
      onClose={close}
      onSubmit={submit}
      footer={
        <>
          <button type="button" className="button" disabled={create.isPending} onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={create.isPending} aria-busy={create.isPending}>
            Create token
          </button>
        </>
      }
    >
      <ErrorBanner error={refused.general} />
      <Field label="Name" error={errorOf('name')}>
        <input value={name} autoFocus autoComplete="off" maxLength={200} onChange={(e) => {
            setName(e.target.value);
            edit('name');
          }} />
      </Field>
      <Field label="Description" error={errorOf('description')} hint="What uses it, and who to ask about it.">
        <input value={description} autoComplete="off" onChange={(e) => {
            setDescription(e.target.value);
            edit('description');
          }} />
      </Field>
      <ExpiryField
        day={day}
        onChange={(next) => {
          setDay(next);
          edit('expiry');
        }}
        error={errorOf('expiry')}
      />
      <Field
        label="Namespace access"
        error={errorOf('namespace')}
        hint={
          spaces.isError
            ? `The namespaces could not be listed (${spaces.error.message}); the token can still be made for all of them.`
            : 'A token for one namespace reaches only its flags, segments and evaluations; it cannot list namespaces or manage tokens.'
        }
      >
        <select
          value={namespace}
          onChange={(e) => {
            setNamespace(e.target.value);
            edit('namespace');
          }}
        >
          <option value="">All namespaces</option>
          {namespace !== '' && !(spaces.data ?? []).some((n) => n.key === namespace) && <option value={namespace}>Only {namespace}</option>}
          {(spaces.data ?? []).map((n) => (
            <option key={n.key} value={n.key}>
              Only {namespaceLabel(n)}
            </option>
          ))}
        </select>
      </Field>
    </Dialog>
  );
}
