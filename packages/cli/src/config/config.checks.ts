/** Checks across settings, run once every setting is valid on its own. */
import type { EnsignConfig } from './config.schema.js';

/** Throws an Error naming the key of the first inconsistency. */
export function checkConfig(config: EnsignConfig): void {
  const { server } = config;
  if (server.protocol === 'https') {
    for (const key of ['cert_file', 'cert_key'] as const) {
      if (server[key] === '') throw new Error(`server.${key}: must be set when server.protocol is https`);
    }
  }
  const { session, methods } = config.authentication;
  const { github, oidc, jwt } = methods;
  if ((oidc.enabled || github.enabled) && session.domain === '') {
    throw new Error('authentication.session.domain: must be set when the oidc or github method is enabled');
  }
  if (oidc.enabled && Object.keys(oidc.providers).length === 0) {
    throw new Error('authentication.methods.oidc.providers: must name at least one provider when the oidc method is enabled');
  }
  if (github.enabled) {
    for (const key of ['client_id', 'client_secret', 'redirect_address'] as const) {
      if (github[key] === '') throw new Error(`authentication.methods.github.${key}: must be set when the github method is enabled`);
    }
  }
  if (github.allowed_organizations.length > 0 && !github.scopes.includes('read:org')) {
    throw new Error('authentication.methods.github.scopes: must include read:org when allowed_organizations is set');
  }
  for (const org of Object.keys(github.allowed_teams)) {
    if (!github.allowed_organizations.includes(org)) {
      throw new Error(`authentication.methods.github.allowed_teams: organization "${org}" must also be in allowed_organizations`);
    }
  }
  if (jwt.enabled && (jwt.jwks_url === '') === (jwt.public_key_file === '')) {
    throw new Error('authentication.methods.jwt: exactly one of jwks_url and public_key_file must be set');
  }
  const unknownPropagator = config.tracing.propagators.find((p) => p !== 'tracecontext' && p !== 'baggage');
  if (unknownPropagator !== undefined) throw new Error(`tracing.propagators: "${unknownPropagator}" is not supported (tracecontext, baggage)`);
  const { analytics } = config;
  // Flag usage tells an inactive flag from the hourly counts, so they must reach back that far.
  if (analytics.usage_retention < analytics.stale_after) throw new Error('analytics.usage_retention: must be at least analytics.stale_after');
  const { log, webhook } = config.audit.sinks;
  if (log.enabled && log.file === '') throw new Error('audit.sinks.log.file: must be set when the log sink is enabled');
  if (webhook.enabled && (webhook.url === '') === (webhook.templates.length === 0)) {
    throw new Error('audit.sinks.webhook: exactly one of url and templates must be set when the webhook sink is enabled');
  }
}
