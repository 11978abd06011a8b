/**
 * Authentication of gRPC calls, with the real Authenticator over a digest set: the credential
 * forms of HTTP, `authentication.required` and `exclude.*` per surface, the authentication API's
 * own rules, and which resolver each surface uses.
 */
import test from 'ava';
import { type AccessOptions, AccessPolicy, Authenticator, type Credential, digestOf, digestSetOf, type DigestSet } from '@ensign/auth';
import { Code, isAppError } from '@ensign/core';
import { CallAuth, credentialOf, type CredentialResolver } from '../src/call-auth.js';

const TOKEN = 'good-token';
const SCOPED = 'scoped-token';
const EXPIRED = 'expired-token';
const digests: DigestSet = digestSetOf([
  { digest: digestOf(TOKEN), method: 'METHOD_TOKEN' },
  { digest: digestOf(SCOPED), method: 'METHOD_TOKEN', namespace: 'team' },
  { digest: digestOf(EXPIRED), method: 'METHOD_TOKEN', expiresAt: '2000-01-01T00:00:00Z' },
]);
const authenticator = new Authenticator({ digests: () => digests });
const NO_EXCLUDE = { management: false, evaluation: false, ofrep: false };

interface Setup extends Partial<AccessOptions> {
  authenticator?: CredentialResolver;
  evaluationAuthenticator?: CredentialResolver;
}

const auth = ({ required = true, exclude = NO_EXCLUDE, ...resolvers }: Setup = {}): CallAuth =>
  new CallAuth({ policy: new AccessPolicy({ required, exclude }), authenticator, ...resolvers });

async function refusal(t: { fail(m: string): void }, promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    t.fail('expected a refusal');
    return undefined;
  } catch (err) {
    return isAppError(err) ? err.code : undefined;
  }
}

test('the authorization metadata is read with the HTTP prefixes, exactly', (t) => {
  t.deepEqual(credentialOf(undefined), { kind: 'none' });
  t.deepEqual(credentialOf(`Bearer ${TOKEN}`), { kind: 'token', token: TOKEN, via: 'bearer' });
  t.deepEqual(credentialOf('JWT a.b.c'), { kind: 'jwt', jwt: 'a.b.c' });
  t.deepEqual(credentialOf(`bearer ${TOKEN}`), { kind: 'malformed' });
  t.deepEqual(credentialOf('Bearer '), { kind: 'malformed' });
});

test('required: a known token passes on every guarded surface; none, unknown, expired or malformed is UNAUTHENTICATED', async (t) => {
  const calls = auth();
  for (const surface of ['management', 'evaluation', 'ofrep', 'auth'] as const) {
    t.like(await calls.callerOf(surface, `Bearer ${TOKEN}`), { method: 'METHOD_TOKEN', via: 'bearer' }, surface);
    for (const authorization of [undefined, 'Bearer unknown', `Bearer ${EXPIRED}`, `Token ${TOKEN}`, 'JWT eyJ.x.y']) {
      t.is(await refusal(t, calls.callerOf(surface, authorization)), Code.Unauthenticated, `${surface} ${authorization ?? 'none'}`);
    }
  }
});

test('the public surface is never authenticated, even with a bad credential', async (t) => {
  t.is(await auth().callerOf('public', 'Bearer unknown'), undefined);
  t.is(await auth().callerOf('public', `Bearer ${TOKEN}`), undefined);
});

test('not required: management and evaluation calls pass without looking at the credential', async (t) => {
  const calls = auth({ required: false });
  for (const surface of ['management', 'evaluation', 'ofrep'] as const) {
    t.is(await calls.callerOf(surface, undefined), undefined);
    t.is(await calls.callerOf(surface, 'Bearer unknown'), undefined);
  }
});

test('not required: the authentication API still resolves a valid credential, and a bad one counts as none', async (t) => {
  const calls = auth({ required: false });
  t.like(await calls.callerOf('auth', `Bearer ${TOKEN}`), { method: 'METHOD_TOKEN' });
  t.is(await calls.callerOf('auth', 'Bearer unknown'), undefined);
  t.is(await calls.callerOf('auth', undefined), undefined);
});

test('exclude.* opens its surface only', async (t) => {
  const calls = auth({ exclude: { management: false, evaluation: true, ofrep: false } });
  t.is(await calls.callerOf('evaluation', undefined), undefined);
  t.is(await refusal(t, calls.callerOf('management', undefined)), Code.Unauthenticated);
  t.is(await refusal(t, calls.callerOf('ofrep', undefined)), Code.Unauthenticated);
  t.is(await refusal(t, calls.callerOf('auth', undefined)), Code.Unauthenticated);
  t.true(calls.policy.guards('management'));
  t.false(calls.policy.guards('evaluation'));
  t.false(calls.policy.guards('public'));
});

test('a namespace-scoped token is refused on the authentication API, as over HTTP', async (t) => {
  const calls = auth();
  t.like(await calls.callerOf('management', `Bearer ${SCOPED}`), { namespace: 'team' });
  t.is(await refusal(t, calls.callerOf('auth', `Bearer ${SCOPED}`)), Code.Unauthenticated);
  t.is(await refusal(t, auth({ required: false }).callerOf('auth', `Bearer ${SCOPED}`)), Code.Unauthenticated);
});

test('evaluation and OFREP calls use the evaluation resolver; management and auth calls the other', async (t) => {
  const seen: string[] = [];
  const recording = (name: string): CredentialResolver => ({
    authenticate: (credential: Credential) => {
      seen.push(name);
      return authenticator.authenticate(credential);
    },
  });
  const calls = auth({ authenticator: recording('store'), evaluationAuthenticator: recording('digests') });
  for (const surface of ['management', 'evaluation', 'ofrep', 'auth'] as const) await calls.callerOf(surface, `Bearer ${TOKEN}`);
  t.deepEqual(seen, ['store', 'digests', 'digests', 'store']);
});
