/** `/metrics` of authorization: refusals, calls the policy engine could not decide, policy reloads that failed. */
import { Counter, type Registry } from 'prom-client';

export interface AuthorizationMetricsSource {
  counts: { denied: number; failed: number };
  /** Policy or data file versions that did not load (the last good one kept deciding). */
  reloadFailures(): number;
}

export function registerAuthorizationMetrics(registry: Registry, source: AuthorizationMetricsSource): void {
  const total = (name: string, help: string, read: () => number): void => {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  };
  total('ensign_authorization_denied_total', 'Management calls refused by the authorization policy (403 permission denied).', () => source.counts.denied);
  total('ensign_authorization_failures_total', 'Management calls the policy engine could not decide in time (an OPA not answering): refused with 503.', () => source.counts.failed);
  total('ensign_authorization_reload_failures_total', 'New versions of the policy or data file that did not load; the last good version kept deciding.', () => source.reloadFailures());
}
