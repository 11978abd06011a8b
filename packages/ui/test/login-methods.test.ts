import test from 'ava';
import { loginChoices, providerLabel } from '../src/lib/login-methods.js';

const urls = { authorize_url: '/auth/v1/method/oidc/x/authorize', callback_url: '/auth/v1/method/oidc/x/callback' };

test('one button per OIDC provider, in the service order, and the token field when tokens are on', (t) => {
  const choices = loginChoices([
    { method: 'METHOD_TOKEN', enabled: true },
    { method: 'METHOD_GITHUB', enabled: false, metadata: {} },
    { method: 'METHOD_OIDC', enabled: true, metadata: { providers: { google: urls, 'azure-ad': urls } } },
    { method: 'METHOD_KUBERNETES', enabled: true },
    { method: 'METHOD_JWT', enabled: false },
  ]);
  t.deepEqual(choices, {
    providers: [
      { name: 'google', label: 'Google' },
      { name: 'azure-ad', label: 'Azure Ad' },
    ],
    github: false,
    token: true,
  });
});

test('disabled methods offer nothing', (t) => {
  t.deepEqual(
    loginChoices([
      { method: 'METHOD_TOKEN', enabled: false },
      { method: 'METHOD_GITHUB', enabled: true },
      { method: 'METHOD_OIDC', enabled: false, metadata: { providers: {} } },
    ]),
    { providers: [], github: true, token: false },
  );
  t.deepEqual(loginChoices([]), { providers: [], github: false, token: false });
});

test('provider names are spelled as people write them', (t) => {
  t.is(providerLabel('google'), 'Google');
  t.is(providerLabel('keycloak'), 'Keycloak');
  t.is(providerLabel('gitlab'), 'GitLab');
  t.is(providerLabel('my_sso'), 'My Sso');
});
