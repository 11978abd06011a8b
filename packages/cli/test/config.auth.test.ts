/** The authentication settings: lists, the OIDC provider mapping, secrets kept out of messages, and checks across keys. */
import test from 'ava';
import { loadConfig } from '../src/config/config.loader.js';
import { errorOf, fromYaml } from './helpers/config-load.js';



const GOOGLE = {
  issuer_url: 'https://accounts.google.com',
  client_id: 'cid',
  client_secret: 'very-secret',
  redirect_address: 'https://flags.example.com',
};

test('token settings come from the file or the environment, durations in milliseconds', (t) => {
  const { config } = fromYaml(
    'authentication:\n  required: true\n  methods:\n    token:\n      enabled: true\n      bootstrap:\n        expiration: 24h\n      cleanup:\n        interval: 2s\n        grace_period: 1s\n',
    { ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: 's3cr3t' },
  );
  t.true(config.authentication.required);
  t.deepEqual(config.authentication.methods.token, { enabled: true, bootstrap: { token: 's3cr3t', expiration: 86_400_000, metadata: {} }, cleanup: { interval: 2000, grace_period: 1000 } });
});

test('lists are YAML sequences or comma-separated environment values', (t) => {
  t.deepEqual(fromYaml('authentication:\n  methods:\n    jwt:\n      validate_claims:\n        audiences: [a, b]\n').config.authentication.methods.jwt.validate_claims.audiences, ['a', 'b']);
  t.deepEqual(loadConfig({ env: { ENSIGN_AUTHENTICATION_METHODS_JWT_VALIDATE_CLAIMS_AUDIENCES: 'a, b,,c' } }).config.authentication.methods.jwt.validate_claims.audiences, ['a', 'b', 'c']);
  t.regex(errorOf(() => fromYaml('authentication:\n  methods:\n    github:\n      scopes: [1, 2]\n')), /^authentication\.methods\.github\.scopes: must be a list of strings/);
});

test('OIDC providers are a mapping keyed by name, from the file or as JSON in the environment', (t) => {
  const yaml = `authentication:\n  session:\n    domain: flags.example.com\n  methods:\n    oidc:\n      enabled: true\n      providers:\n        google:\n${Object.entries(GOOGLE).map(([k, v]) => `          ${k}: ${v}`).join('\n')}\n          scopes: [email]\n          nonce: static\n`;
  const { config } = fromYaml(yaml);
  t.deepEqual(config.authentication.methods.oidc.providers, { google: { ...GOOGLE, scopes: ['email'], use_pkce: false } });
  const env = loadConfig({
    env: {
      ENSIGN_AUTHENTICATION_SESSION_DOMAIN: 'flags.example.com',
      ENSIGN_AUTHENTICATION_METHODS_OIDC_ENABLED: 'true',
      ENSIGN_AUTHENTICATION_METHODS_OIDC_PROVIDERS: JSON.stringify({ corp: { ...GOOGLE, use_pkce: true } }),
    },
  });
  t.deepEqual(env.config.authentication.methods.oidc.providers, { corp: { ...GOOGLE, scopes: [], use_pkce: true } });
});

test('a bad provider is named without echoing its secret', (t) => {
  const bad = (providers: unknown) =>
    errorOf(() => loadConfig({ env: { ENSIGN_AUTHENTICATION_METHODS_OIDC_PROVIDERS: JSON.stringify(providers) } }));
  t.is(bad({ google: { ...GOOGLE, client_id: '' } }), 'authentication.methods.oidc.providers: google.client_id: must be a non-empty string (got "***")');
  t.is(bad({ Google: GOOGLE }), 'authentication.methods.oidc.providers: "Google": provider names are lowercase letters, digits, "-" or "_" (got "***")');
  t.is(bad({ google: { ...GOOGLE, clientSecret: 'x' } }), 'authentication.methods.oidc.providers: google.clientSecret: unknown provider setting (got "***")');
  t.false(bad({ google: { ...GOOGLE, use_pkce: 'maybe' } }).includes('very-secret'));
  t.is(errorOf(() => loadConfig({ env: { ENSIGN_AUTHENTICATION_METHODS_OIDC_PROVIDERS: '{not json' } })), 'authentication.methods.oidc.providers: must be a mapping of provider names to their settings (a JSON object in the environment) (got "***")');
});

test('a numeric secret is its digits, and secrets are never echoed in an error', (t) => {
  t.is(fromYaml('authentication:\n  methods:\n    token:\n      bootstrap:\n        token: 12345\n').config.authentication.methods.token.bootstrap.token, '12345');
  const message = errorOf(() => loadConfig({ env: { ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: '   ', ENSIGN_AUTHENTICATION_SESSION_TOKEN_LIFETIME: 'x' } }));
  t.false(message.includes('bootstrap'), 'a blank secret is simply unset');
  t.regex(message, /^authentication\.session\.token_lifetime:/);
});

test('settings that only make sense together are checked together', (t) => {
  t.is(
    errorOf(() => loadConfig({ env: { ENSIGN_AUTHENTICATION_METHODS_GITHUB_ENABLED: 'true' } })),
    'authentication.session.domain: must be set when the oidc or github method is enabled',
  );
  t.is(
    errorOf(() => loadConfig({ env: { ENSIGN_AUTHENTICATION_SESSION_DOMAIN: 'x', ENSIGN_AUTHENTICATION_METHODS_GITHUB_ENABLED: 'true' } })),
    'authentication.methods.github.client_id: must be set when the github method is enabled',
  );
  t.is(
    errorOf(() => loadConfig({ env: { ENSIGN_AUTHENTICATION_SESSION_DOMAIN: 'x', ENSIGN_AUTHENTICATION_METHODS_OIDC_ENABLED: 'true' } })),
    'authentication.methods.oidc.providers: must name at least one provider when the oidc method is enabled',
  );
  t.is(
    errorOf(() => fromYaml('authentication:\n  methods:\n    github:\n      allowed_organizations: [acme]\n')),
    'authentication.methods.github.scopes: must include read:org when allowed_organizations is set',
  );
  t.is(
    errorOf(() => fromYaml('authentication:\n  methods:\n    github:\n      scopes: [read:org]\n      allowed_organizations: [acme]\n      allowed_teams:\n        other: [devs]\n')),
    'authentication.methods.github.allowed_teams: organization "other" must also be in allowed_organizations',
  );
  t.deepEqual(
    fromYaml('authentication:\n  methods:\n    github:\n      scopes: [read:org]\n      allowed_organizations: [acme]\n      allowed_teams:\n        acme: [devs, ops]\n').config.authentication.methods.github.allowed_teams,
    { acme: ['devs', 'ops'] },
  );
  for (const env of [{}, { ENSIGN_AUTHENTICATION_METHODS_JWT_JWKS_URL: 'https://x/jwks', ENSIGN_AUTHENTICATION_METHODS_JWT_PUBLIC_KEY_FILE: '/k.pem' }]) {
    t.is(
      errorOf(() => loadConfig({ env: { ENSIGN_AUTHENTICATION_METHODS_JWT_ENABLED: 'true', ...env } })),
      'authentication.methods.jwt: exactly one of jwks_url and public_key_file must be set',
    );
  }
});
