/** The Name and Key fields of a create dialog: the key is suggested from the name until the user makes it their own. */
import { keyFollowingName } from '../lib/key-suggestion.js';
import { Field, type FieldMessage } from './field.js';

export interface NameAndKey {
  name: string;
  key: string;
}

export interface NameKeyFieldsProps {
  value: NameAndKey;
  onChange: (value: NameAndKey) => void;
  /** What is wrong with the name and key: checks before submitting, or the service's refusal. */
  errors: Readonly<Record<string, FieldMessage | undefined>>;
  keyHint: string;
  /** The key of an existing resource: it cannot change, so it no longer follows the name. */
  keyReadOnly?: boolean;
}

export function NameKeyFields({ value, onChange, errors, keyHint, keyReadOnly = false }: NameKeyFieldsProps) {
  return (
    <>
      <Field label="Name" error={errors['name']}>
        <input
          value={value.name}
          autoComplete="off"
          onChange={(e) => {
            const name = e.target.value;
            onChange({ name, key: keyReadOnly ? value.key : keyFollowingName(value.name, value.key, name) });
          }}
        />
      </Field>
      <Field label="Key" error={errors['key']} hint={keyHint}>
        <input className="mono" value={value.key} readOnly={keyReadOnly} autoComplete="off" spellCheck={false} onChange={(e) => onChange({ name: value.name, key: e.target.value })} />
      </Field>
    </>
  );
}
