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
  const { authorization } = config;
  if (authorization.required) {
    if (!config.authentication.required) throw new Error('authorization.required: needs authentication.required (a call is authorized by who made it)');
    const local = authorization.local;
    if (local.policy.path === '' && local.data.path === '' && local.policy.opa_url === '') {
      throw new Error('authorization.local: set data.path (role data), policy.path or policy.opa_url when authorization is required');
    }
  }
  const unknownPropagator = config.tracing.propagators.find((p) => p !== 'tracecontext' && p !== 'baggage');
  if (unknownPropagator !== undefined) throw new Error(`tracing.propagators: "${unknownPropagator}" is not supported (tracecontext, baggage)`);
  const { analytics } = config;
  // Flag usage tells an inactive flag from the hourly counts, so they must reach back that far.
  if (analytics.usage_retention < analytics.stale_after) throw new Error('analytics.usage_retention: must be at least analytics.stale_after');
  checkStorage(config.storage);
  const { log, webhook } = config.audit.sinks;
  if (log.enabled && log.file === '') throw new Error('audit.sinks.log.file: must be set when the log sink is enabled');
  if (webhook.enabled && (webhook.url === '') === (webhook.templates.length === 0)) {
    throw new Error('audit.sinks.webhook: exactly one of url and templates must be set when the webhook sink is enabled');
  }
}

/** Flipt's storage checks (and its messages), plus what Ensign does not support. */
function checkStorage(storage: EnsignConfig['storage']): void {
  if (storage.read_only === false && storage.type !== 'database') {
    throw new Error('storage.read_only: setting read only mode is only supported with database storage');
  }
  if (storage.type !== 'git') return;
  const { git } = storage;
  if (git.repository === '') throw new Error('storage.git.repository: git repository must be specified');
  if (git.ref_type === 'semver') throw new Error('storage.git.ref_type: semver is not supported; use static with a branch, tag or commit in storage.git.ref');
  if (git.ca_cert_path !== '' && git.ca_cert_bytes !== '') throw new Error('storage.git: please provide only one of ca_cert_path or ca_cert_bytes');
  const { basic, ssh } = git.authentication;
  if ((basic.username === '') !== (basic.password === '')) {
    throw new Error('storage.git.authentication.basic: both username and password need to be provided for basic auth');
  }
  const sshConfigured = ssh.password !== '' || ssh.private_key_path !== '' || ssh.private_key_bytes !== '';
  if (sshConfigured && (ssh.private_key_path === '') === (ssh.private_key_bytes === '')) {
    throw new Error('storage.git.authentication.ssh: please provide exclusively one of private_key_bytes or private_key_path');
  }
}
