import { createHash } from 'node:crypto';
import test from 'ava';
import { BOOTSTRAP_TOKEN_NAME, bootstrapTokens, digestOf, generateClientToken, issueToken, META, SESSION_PARENT } from '../src/index.js';
import { MemoryAuthenticationStore } from './helpers/memory-authentication-store.js';

/** A logger that keeps what it was given. */
function recordingLogger() {
  const lines: Array<{ obj: object; msg: string }> = [];
  return { lines, info: (obj: object, msg: string) => void lines.push({ obj, msg }) };
}

test('client tokens are 44 characters of padded base64url from 32 random bytes, never repeated', (t) => {
  const tokens = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const token = generateClientToken();
    t.is(token.length, 44);
    t.regex(token, /^[A-Za-z0-9_-]{43}=$/);
    t.is(Buffer.from(token, 'base64url').length, 32);
    tokens.add(token);
  }
  t.is(tokens.size, 200);
});

test('a digest is the padded base64url SHA-256 of the token, so equal tokens have equal digests', (t) => {
  const token = 'a-known-token';
  const expected = createHash('sha256').update(token).digest('base64url') + '=';
  t.is(digestOf(token), expected);
  t.is(digestOf(token), digestOf('a-known-token'));
  t.not(digestOf(token), digestOf('a-known-tokeN'));
});

test('a created token stores only its digest, with name, description and namespace metadata', async (t) => {
  const store = new MemoryAuthenticationStore();
  const expiresAt = new Date('2030-01-01T00:00:00Z');
  const { clientToken, authentication } = await issueToken(store, {
    name: 'ci',
    description: 'for the pipeline',
    namespaceKey: ' team-a ',
    expiresAt,
    metadata: { team: 'a', [META.tokenNamespace]: 'other', [META.tokenName]: 'spoofed', [SESSION_PARENT]: 'another-token' },
  });
  t.is(authentication.method, 'METHOD_TOKEN');
  t.is(authentication.expiresAt, expiresAt.toISOString());
  t.deepEqual(authentication.metadata, {
    team: 'a',
    [META.tokenName]: 'ci',
    [META.tokenDescription]: 'for the pipeline',
    [META.tokenNamespace]: 'team-a',
  }, 'the token\'s own keys win over caller metadata, and it cannot pose as a session of another token');
  const stored = [...store.rows.values()][0];
  t.is(stored?.digest, digestOf(clientToken));
  t.false(JSON.stringify([...store.rows.values()]).includes(clientToken), 'the token itself is stored nowhere');
});

test('an unnamed token keeps an empty name and no description or namespace', async (t) => {
  const store = new MemoryAuthenticationStore();
  const { authentication } = await issueToken(store, { name: '', description: '' });
  t.deepEqual(authentication.metadata, { [META.tokenName]: '' });
  t.is(authentication.expiresAt, undefined);
});

test('bootstrap creates one token on first start and logs it once under client_token', async (t) => {
  const store = new MemoryAuthenticationStore();
  const logger = recordingLogger();
  t.true(await bootstrapTokens({ store, logger }));
  t.is(logger.lines.length, 1);
  const line = logger.lines[0]!;
  t.is(line.msg, 'access token created');
  const token = (line.obj as { client_token: string }).client_token;
  t.is(token.length, 44);
  const stored = await store.getByDigest(digestOf(token));
  t.is(stored?.metadata[META.tokenName], BOOTSTRAP_TOKEN_NAME);
  t.is(stored?.expiresAt, undefined, 'no expiry by default');

  t.false(await bootstrapTokens({ store, logger }), 'a second start finds a token');
  t.is(logger.lines.length, 1, 'and logs nothing');
  t.is(store.rows.size, 1);
});

test('bootstrap uses a configured token value and expiration', async (t) => {
  const now = new Date('2026-03-01T12:00:00Z');
  const store = new MemoryAuthenticationStore(() => now);
  const logger = recordingLogger();
  await bootstrapTokens({ store, logger, token: 's3cr3t', expirationMs: 3_600_000, now: () => now });
  const stored = await store.getByDigest(digestOf('s3cr3t'));
  t.truthy(stored);
  t.is(stored?.expiresAt, '2026-03-01T13:00:00.000Z');
  t.deepEqual(logger.lines[0]?.obj, { client_token: 's3cr3t' });
});

test('bootstrap does nothing while any token exists, even one that is not the bootstrap token', async (t) => {
  const store = new MemoryAuthenticationStore();
  await issueToken(store, { name: 'existing', description: '' });
  const logger = recordingLogger();
  t.false(await bootstrapTokens({ store, logger, token: 'fixed' }));
  t.is(await store.getByDigest(digestOf('fixed')), undefined);
  t.deepEqual(logger.lines, []);
});

test('two instances bootstrapping the same fixed token at once end with one token and no failure', async (t) => {
  const store = new MemoryAuthenticationStore();
  const logger = recordingLogger();
  const results = await Promise.all([bootstrapTokens({ store, logger, token: 'same' }), bootstrapTokens({ store, logger, token: 'same' })]);
  t.is(results.filter(Boolean).length, 1);
  t.is(store.rows.size, 1);
});
