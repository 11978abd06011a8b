/**
 * The provider's lifecycle against a fake Ensign: the first snapshot, a lost and recovered stream
 * (STALE, ERROR, READY), a refused credential (FATAL), an unreachable server from the start with
 * and without a bootstrap snapshot.
 */
import { ProviderEvents, ProviderFatalError } from '@openfeature/web-sdk';
import test from 'ava';
import { FakeEnsign, until } from './helpers/fake-ensign.js';
import { shopDocument } from './helpers/documents.js';
import { providerFor } from './helpers/provider-under-test.js';

const PRO = { targetingKey: 'user-1', plan: 'pro' };

test('initialize settles with the first snapshot, fetched in Ensign\'s format, then the stream opens from its tag', async (t) => {
  const server = new FakeEnsign(shopDocument());
  const { provider, events } = providerFor(t, server);
  await provider.initialize(PRO);
  t.like(provider.resolveStringEvaluation('color', 'none'), { value: 'blue', reason: 'TARGETING_MATCH', flagMetadata: { version: 'tag-1' } });
  t.is(server.snapshotRequests[0]?.url, 'http://ensign.test/internal/v1/evaluation/snapshot/namespace/shop?format=ensign');
  await until(() => server.open().length === 1);
  t.is(server.open()[0]?.url, 'http://ensign.test/client/v2/environments/default/namespaces/shop/stream?format=ensign&digest=tag-1');
  t.deepEqual(events, [], 'the SDK announces READY itself when initialize resolves');
});

test('a lost stream: STALE after the grace period, ERROR later, answers kept; back → READY', async (t) => {
  const server = new FakeEnsign(shopDocument());
  const { provider, types } = providerFor(t, server);
  await provider.initialize(PRO);
  await until(() => server.open().length === 1);
  server.goDown();
  await until(() => types().includes(ProviderEvents.Error));
  t.deepEqual(types(), [ProviderEvents.Stale, ProviderEvents.Error]);
  t.like(provider.resolveStringEvaluation('color', 'none'), { value: 'blue', reason: 'TARGETING_MATCH' }, 'answers from the last snapshot');
  server.reachable = true;
  await until(() => types().length === 3);
  t.deepEqual(types(), [ProviderEvents.Stale, ProviderEvents.Error, ProviderEvents.Ready]);
  t.true(server.snapshotRequests.slice(1).every((request) => request.headers.get('if-none-match') === 'tag-1'), 'reconnections fetch conditionally on the tag held');
});

test('a stream back within the grace period is not announced', async (t) => {
  const server = new FakeEnsign(shopDocument());
  const { provider, types } = providerFor(t, server, { staleAfterMs: 2_000, errorAfterMs: 4_000 });
  await provider.initialize(PRO);
  await until(() => server.open().length === 1);
  server.goDown();
  server.reachable = true;
  await until(() => server.open().length === 1);
  t.deepEqual(types(), []);
});

test('a refused credential at start fails initialize as FATAL', async (t) => {
  const server = new FakeEnsign(shopDocument());
  server.status = 401;
  const { provider } = providerFor(t, server);
  const err = await t.throwsAsync(provider.initialize(PRO));
  t.true(err instanceof ProviderFatalError);
  t.regex(err!.message, /HTTP 401/);
});

test('a credential refused later is an ERROR event with PROVIDER_FATAL, and the provider stops trying', async (t) => {
  const server = new FakeEnsign(shopDocument());
  const { provider, events } = providerFor(t, server, { token: 'revoked-soon' });
  await provider.initialize(PRO);
  await until(() => server.open().length === 1);
  server.status = 403;
  server.goDown();
  server.reachable = true;
  await until(() => events.length === 1);
  t.deepEqual(events, [{ type: ProviderEvents.Error, errorCode: 'PROVIDER_FATAL' }]);
  const asked = server.attempts;
  // A provider whose server went away keeps trying on the same schedule: once it has tried three
  // more times, the refused one would have tried again too.
  const control = new FakeEnsign(shopDocument());
  const { provider: controlProvider } = providerFor(t, control);
  await controlProvider.initialize(PRO);
  await until(() => control.open().length === 1);
  control.goDown();
  const controlAsked = control.attempts;
  await until(() => control.attempts >= controlAsked + 3);
  t.is(server.attempts, asked, 'no reconnection after a refusal');
});

test('unreachable from the start without a bootstrap: initialize fails, answers are PROVIDER_NOT_READY, READY once reached', async (t) => {
  const server = new FakeEnsign(shopDocument());
  server.reachable = false;
  const { provider, types } = providerFor(t, server);
  await t.throwsAsync(provider.initialize(PRO), { message: /no snapshot from Ensign within 400 ms/ });
  t.like(provider.resolveBooleanEvaluation('beta', false), { value: false, reason: 'ERROR', errorCode: 'PROVIDER_NOT_READY' });
  server.reachable = true;
  await until(() => types().includes(ProviderEvents.Ready));
  t.like(provider.resolveBooleanEvaluation('beta', false), { value: true, reason: 'TARGETING_MATCH' });
});

test('a bootstrap snapshot: READY at once and its answers while Ensign is unreachable, then STALE', async (t) => {
  const server = new FakeEnsign(shopDocument());
  server.reachable = false;
  const { provider, types } = providerFor(t, server, { bootstrap: JSON.stringify(shopDocument()) });
  await provider.initialize(PRO);
  t.like(provider.resolveStringEvaluation('color', 'none'), { value: 'blue', reason: 'TARGETING_MATCH' });
  t.false('version' in (provider.resolveStringEvaluation('color', 'none').flagMetadata ?? {}), 'a bootstrap has no version');
  await until(() => types().includes(ProviderEvents.Stale));
});

test('without a url the bootstrap is all there is', async (t) => {
  const { EnsignWebProvider } = await import('../src/index.js');
  const provider = new EnsignWebProvider({ bootstrap: shopDocument() });
  await provider.initialize(PRO);
  t.like(provider.resolveBooleanEvaluation('beta', false), { value: true });
  await t.throwsAsync(new EnsignWebProvider({}).initialize({}), { message: /needs a url, a bootstrap snapshot, or both/ });
});
