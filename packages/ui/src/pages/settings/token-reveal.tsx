/** The new token, shown this once, with a copy button and the warning that it cannot be seen again. */
import { CopyButton } from '../../components/copy-button.js';
import { Field } from '../../components/field.js';

export function TokenReveal({ clientToken, name }: { clientToken: string; name: string }) {
  return (
    <div className="token-reveal">
      <p className="notice token-warning" role="alert">
        <strong>Copy this token now: it will not be shown again.</strong> Ensign keeps only a digest of it; if it is lost, create another.
      </p>
      <Field label="New token" hint={name === '' ? 'Use it as Authorization: Bearer <token>.' : `The token "${name}". Use it as Authorization: Bearer <token>.`}>
        <input type="text" readOnly value={clientToken} className="mono token-value" autoFocus spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
      </Field>
      <CopyButton text={clientToken} label="Copy token" className="button button-primary" />
    </div>
  );
}
