/**
 * One button per browser login. A click asks the service where to send the browser and goes
 * there; the page asked for is remembered, as the service's callback always returns to `/`.
 */
import { useState } from 'react';
import { useLocation } from 'react-router';
import { auth } from '../../api/endpoints.js';
import { rememberReturnPath } from '../../auth/return-path.js';
import { ErrorBanner } from '../../components/status.js';

export interface BrowserLogin {
  /** The method's path below `/auth/v1/method` (`oidc/google`, `github`). */
  path: string;
  label: string;
}

export function ProviderButtons({ logins }: { logins: readonly BrowserLogin[] }) {
  const location = useLocation();
  const [leaving, setLeaving] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);

  const signIn = async (login: BrowserLogin) => {
    const here = `${location.pathname}${location.search}`;
    setLeaving(login.path);
    setError(undefined);
    try {
      const authorizeUrl = await auth.authorize(login.path, here);
      rememberReturnPath(here);
      window.location.assign(authorizeUrl);
    } catch (err) {
      setLeaving(undefined);
      setError(err);
    }
  };

  return (
    <div className="login-buttons">
      <ErrorBanner error={error} />
      {logins.map((login) => (
        <button
          key={login.path}
          type="button"
          className="button login-provider"
          disabled={leaving !== undefined}
          aria-busy={leaving === login.path}
          onClick={() => void signIn(login)}
        >
          Sign in with {login.label}
        </button>
      ))}
    </div>
  );
}
