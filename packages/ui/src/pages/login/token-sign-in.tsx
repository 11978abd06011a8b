/** Signs in with a pasted client token (traded for a browser session); a refused one keeps what was pasted and shows the service's answer beside it. */
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client.js';
import { useSession } from '../../auth/session.js';
import { Field } from '../../components/field.js';

export function TokenSignIn() {
  const session = useSession();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = token.trim();
    if (value === '') {
      setError('Paste a client token');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await session.signInWithToken(value);
    } catch (err) {
      setError(err instanceof ApiError || err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  return (
    <form className="login-token" onSubmit={(e) => void submit(e)} noValidate>
      <Field label="Client token" error={error} hint="A token from Settings → API tokens (one limited to a namespace opens only that namespace), or the bootstrap token in the server's log. You stay signed in, in every tab, until you sign out or the session ends.">
        <input
          type="password"
          value={token}
          autoComplete="off"
          spellCheck={false}
          className="mono"
          onChange={(e) => {
            setToken(e.target.value);
            setError(undefined);
          }}
        />
      </Field>
      <button type="submit" className="button button-primary login-submit" disabled={busy} aria-busy={busy}>
        Sign in
      </button>
    </form>
  );
}
