/**
 * The login screen the Gate shows when authentication is required and there is no valid
 * credential: a button per browser login the service offers, and a field for a static token.
 */
import { useQuery } from '@tanstack/react-query';
import { auth } from '../../api/endpoints.js';
import { queryKeys } from '../../api/query-keys.js';
import { useSession } from '../../auth/session.js';
import { ErrorBanner, Loading } from '../../components/status.js';
import { loginChoices } from '../../lib/login-methods.js';
import { ProviderButtons } from './provider-buttons.js';
import { TokenSignIn } from './token-sign-in.js';
import './login-page.css';

export function LoginPage() {
  const { state } = useSession();
  const reason = state.kind === 'signed-out' ? state.reason : undefined;
  const methods = useQuery({ queryKey: queryKeys.methods, queryFn: auth.methods });
  const choices = methods.data === undefined ? undefined : loginChoices(methods.data);
  const browserLogins = choices === undefined ? [] : [...choices.providers.map((p) => ({ path: `oidc/${p.name}`, label: p.label })), ...(choices.github ? [{ path: 'github', label: 'GitHub' }] : [])];

  return (
    <main className="login">
      <div className="login-card">
        <div className="login-brand">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>Ensign</span>
        </div>
        <h1>Sign in</h1>
        <p className="muted login-lead">Manage feature flags, segments and tokens.</p>
        {reason !== undefined && (
          <p className="notice login-reason" role="status">
            {reason}
          </p>
        )}
        {methods.isPending && <Loading label="Loading sign-in options…" />}
        {methods.isError && <ErrorBanner error={methods.error} onRetry={() => void methods.refetch()} />}
        {choices !== undefined && (
          <>
            {browserLogins.length > 0 && <ProviderButtons logins={browserLogins} />}
            {browserLogins.length > 0 && choices.token && <p className="divider">or</p>}
            {choices.token && <TokenSignIn />}
            {browserLogins.length === 0 && !choices.token && (
              <p className="notice">No sign-in method for browsers is enabled on this server. Its operator can enable OIDC, GitHub or static tokens.</p>
            )}
          </>
        )}
      </div>
    </main>
  );
}
