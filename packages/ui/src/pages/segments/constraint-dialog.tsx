/**
 * Adds or edits one constraint. The type decides the operators offered (those the service allows)
 * and the operator the value input. A missing property or value (or a number that is none) is shown
 * before anything is sent; a refused save shows the service's message next to the field it names
 * and keeps everything typed. A date-time is read in the time zone chosen in Preferences unless
 * another is picked here.
 */
import type { ComparisonType, Constraint } from '@ensign/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { constraints } from '../../api/endpoints.js';
import { isDrafted } from '../../api/drafting.js';
import { queryKeys } from '../../api/query-keys.js';
import { refreshList } from '../../api/refresh-list.js';
import { Dialog, DialogButtons } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorBanner } from '../../components/status.js';
import { useToast } from '../../components/toast.js';
import { useLocalTimeZone, useTimeZone } from '../../hooks/time-zone.js';
import { shownErrors } from '../../api/user-error.js';
import { useFreshRefusal } from '../../hooks/form-errors.js';
import { constraintProblems, hasProblems, type Problems, withoutProblem } from '../../lib/form-checks.js';
import { type ConstraintDraft, draftFromConstraint, draftWithType, emptyDraft, requestOfDraft } from '../../lib/constraint-draft.js';
import { COMPARISON_TYPES, ENTITY_ID_PROPERTY, operatorsFor, typeLabel, valueKind } from '../../lib/constraint-operators.js';
import { ConstraintValueField } from './constraint-value-field.js';

const FIELDS = ['type', 'property', 'operator', 'value', 'description'];

export interface ConstraintDialogProps {
  ns: string;
  segmentKey: string;
  open: boolean;
  /** The constraint to edit; a new one when undefined. */
  constraint: Constraint | undefined;
  onClose: () => void;
}

export function ConstraintDialog({ ns, segmentKey, open, constraint, onClose }: ConstraintDialogProps) {
  const localZone = useLocalTimeZone();
  // The zone chosen in Preferences when the dialog opens; a change made meanwhile in another tab does not reset what is typed.
  const preferred = useTimeZone();
  const zoneAtOpen = useRef(preferred);
  if (!open) zoneAtOpen.current = preferred;
  const zone = zoneAtOpen.current;
  const [draft, setDraft] = useState<ConstraintDraft>(() => emptyDraft(zone));
  const [checks, setChecks] = useState<Problems>({});
  const numberRef = useRef<HTMLInputElement>(null);
  const queries = useQueryClient();
  const toast = useToast();
  const editing = constraint !== undefined;

  const save = useMutation({
    mutationFn: () => {
      const input = requestOfDraft(draft);
      return editing ? constraints.update(ns, segmentKey, constraint.id, input) : constraints.create(ns, segmentKey, input);
    },
    onSuccess: async (saved) => {
      await Promise.all([
        queries.invalidateQueries({ queryKey: queryKeys.segment(ns, segmentKey) }),
        refreshList(queries, queryKeys.segments(ns)),
      ]);
      if (!isDrafted(saved)) toast(editing ? 'Constraint saved' : 'Constraint added');
      onClose();
    },
  });
  const { reset } = save;

  useEffect(() => {
    if (!open) return;
    setDraft(constraint === undefined ? emptyDraft(zone) : draftFromConstraint(constraint, zone));
    setChecks({});
    reset();
  }, [open, constraint, zone, reset]);

  const submit = () => {
    const badNumber = valueKind(draft.type, draft.operator) === 'number' && numberRef.current?.validity.badInput === true;
    const found = constraintProblems(draft, badNumber);
    setChecks(found);
    if (!hasProblems(found)) save.mutate();
  };
  /** A field the user changes loses its problem until the next submit. */
  const refusal = useFreshRefusal(save.error);
  const edit = (next: ConstraintDraft, field: string) => {
    setChecks((old) => withoutProblem(old, field));
    refusal.edited(field);
    setDraft(next);
  };

  const refused = shownErrors(save.error, FIELDS);
  const refusedNow = refusal.fresh(refused.byField);
  const errorOf = (field: string) => checks[field] ?? refusedNow[field];
  const types = COMPARISON_TYPES.some((t) => t.value === draft.type) ? COMPARISON_TYPES : [...COMPARISON_TYPES, { value: draft.type, label: typeLabel(draft.type) }];
  const operators = operatorsFor(draft.type);
  const entity = draft.type === 'ENTITY_ID_COMPARISON_TYPE';

  return (
    <Dialog
      open={open}
      wide
      title={editing ? 'Edit constraint' : 'Add constraint'}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogButtons onCancel={onClose} label="Save constraint" busy={save.isPending} busyLabel="Saving…" />}
    >
      <ErrorBanner error={refused.general} />
      <div className="row">
        <Field label="Type" error={errorOf('type')}>
          <select value={draft.type} onChange={(e) => {
            refusal.edited('type', 'operator', 'value');
            setDraft((d) => draftWithType(d, e.target.value as ComparisonType));
          }}>
            {types.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Property"
          error={errorOf('property')}
          hint={entity ? `Entity ID constraints compare the entity id itself: the property is always ${ENTITY_ID_PROPERTY}.` : 'The context key to compare, such as plan or country.'}
        >
          <input className="mono" value={draft.property} readOnly={entity} autoComplete="off" spellCheck={false} onChange={(e) => edit({ ...draft, property: e.target.value }, 'property')} />
        </Field>
        <Field label="Operator" error={errorOf('operator')}>
          <select value={draft.operator} onChange={(e) => {
            refusal.edited('operator', 'value');
            setDraft((d) => ({ ...d, operator: e.target.value }));
          }}>
            {!operators.some((o) => o.value === draft.operator) && <option value={draft.operator}>{draft.operator}</option>}
            {operators.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ConstraintValueField
        draft={draft}
        onChange={(next) => edit(next, 'value')}
        error={errorOf('value')}
        localTimeZone={localZone}
        numberRef={numberRef}
      />
      <Field label="Description" error={errorOf('description')}>
        <input value={draft.description} autoComplete="off" onChange={(e) => {
            refusal.edited('description');
            setDraft((d) => ({ ...d, description: e.target.value }));
          }} />
      </Field>
    </Dialog>
  );
}
