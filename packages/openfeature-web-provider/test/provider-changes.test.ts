/**
 * What the provider announces: PROVIDER_CONFIGURATION_CHANGED naming the flags whose answer for
 * this context moved, nothing for a change that moves none, nothing on a context change (which
 * re-evaluates), and the flags a schedule flips when its time comes.
 */
import { ProviderEvents } from '@openfeature/web-sdk';
import test from 'ava';
import { distribution, PRO, rule, shopDocument, withFlag } from './helpers/documents.js';
import { FakeEnsign, until } from './helpers/fake-ensign.js';
import { providerFor } from './helpers/provider-under-test.js';

const FREE = { targetingKey: 'user-1', plan: 'free' };

async function connected(t: Parameters<typeof providerFor>[0], options: Parameters<typeof providerFor>[2] = {}) {
  const server = new FakeEnsign(shopDocument());
  const tested = providerFor(t, server, options);
  await tested.provider.initialize(FREE);
  await until(() => server.open().length === 1);
  return { server, ...tested };
}

test('a change that moves this context\'s answer is announced naming that flag; one that does not, not at all', async (t) => {
  const { server, provider, events } = await connected(t);
  server.publish(withFlag(shopDocument(), 'color', (f) => ({ ...f, rules: [rule(1, [PRO], [distribution('green', 100)])] })));
  await until(() => provider.resolveStringEvaluation('color', '').flagMetadata?.['version'] === 'tag-2');
  t.deepEqual(events, [], 'pro users moved; this free user did not');
  server.publish(withFlag(shopDocument(), 'off', (f) => ({ ...f, enabled: true })));
  await until(() => events.length === 1);
  t.deepEqual(events, [{ type: ProviderEvents.ConfigurationChanged, flagsChanged: ['off'] }]);
  t.like(provider.resolveStringEvaluation('off', 'none'), { value: 'red', reason: 'DEFAULT' });
});

test('the same changes read over fetch when a token is given, with the token on every request', async (t) => {
  const { server, provider, events } = await connected(t, { token: 's3cr3t' });
  t.is(server.snapshotRequests[0]?.headers.get('authorization'), 'Bearer s3cr3t');
  server.publish(withFlag(shopDocument(), 'off', (f) => ({ ...f, enabled: true })));
  await until(() => events.length === 1);
  t.deepEqual(events, [{ type: ProviderEvents.ConfigurationChanged, flagsChanged: ['off'] }]);
  t.like(provider.resolveStringEvaluation('off', 'none'), { value: 'red', reason: 'DEFAULT' });
});

test('a new context is answered at once, without a configuration change', async (t) => {
  const { provider, events } = await connected(t);
  t.like(provider.resolveStringEvaluation('color', 'none'), { value: 'red', reason: 'DEFAULT' });
  provider.onContextChange(FREE, { targetingKey: 'user-1', plan: 'pro' });
  t.like(provider.resolveStringEvaluation('color', 'none'), { value: 'blue', reason: 'TARGETING_MATCH' });
  t.deepEqual(events, []);
});

test('a schedule flips its flag on the page\'s clock, announced when it does', async (t) => {
  const at = new Date(Date.now() + 300).toISOString();
  const server = new FakeEnsign(withFlag(shopDocument(), 'off', (f) => ({ ...f, schedules: [{ at, enabled: true }] })));
  const { provider, events } = providerFor(t, server);
  await provider.initialize(FREE);
  t.like(provider.resolveStringEvaluation('off', 'none'), { reason: 'DISABLED' });
  await until(() => events.length === 1);
  t.deepEqual(events, [{ type: ProviderEvents.ConfigurationChanged, flagsChanged: ['off'] }]);
  t.like(provider.resolveStringEvaluation('off', 'none'), { value: 'red', reason: 'DEFAULT' });
});

test('the hash the server names is the one answers are bucketed with', async (t) => {
  const split = (hash: string) => {
    const document = { ...withFlag(shopDocument(), 'split', (f) => ({ ...f, rules: [rule(1, [PRO], [distribution('a', 50), distribution('b', 50)])] })), hash };
    return document;
  };
  // Entities whose murmur3 and crc32 buckets fall on different sides of 50 %.
  const answersWith = async (hash: string) => {
    const server = new FakeEnsign(split(hash));
    const { provider } = providerFor(t, server, { hash: 'murmur3' });
    await provider.initialize({ plan: 'pro' });
    const values: string[] = [];
    for (let i = 0; i < 40; i++) {
      provider.onContextChange({}, { targetingKey: `user-${i}`, plan: 'pro' });
      values.push(provider.resolveStringEvaluation('split', '').value);
    }
    return values;
  };
  t.notDeepEqual(await answersWith('crc32'), await answersWith('murmur3'));
});
