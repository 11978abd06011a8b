/**
 * Where snapshots come from and what their arrival says: a change on the stream is
 * PROVIDER_CONFIGURATION_CHANGED naming the flags it changed; a boundary passing on the provider's
 * own clock too; without a stream route the snapshot is polled; a snapshot older than the one held
 * is ignored; reconnection has a floor against proxies that drop every stream at once; the
 * server's hash wins over the option.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { eventually } from '@ensign/testkit';
import { defaultDocument, flag } from '@ensign/testkit/snapshot-fixtures';
import { ProviderEvents } from '@openfeature/server-sdk';
import { startEnsignDouble } from './helpers/ensign-double.js';
import { FAST, providerClient } from './helpers/provider-events.js';

const edited = (key: string, description: string) => {
  const document = defaultDocument();
  document.flags = document.flags.map((f) => (f.key === key ? { ...f, description, enabled: !f.enabled } : f));
  return document;
};

test('a change on the stream is PROVIDER_CONFIGURATION_CHANGED naming the changed flags, and answered at once', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  const { provider, client, heard } = await providerClient({ url: ensign.url, ...FAST, pollIntervalMs: 60_000 });
  t.teardown(() => provider.onClose());
  t.is(await client.getStringValue('off', 'none', { targetingKey: 'u1' }), 'red');
  ensign.publish(edited('off', 'now on'));
  const changed = await heard.until(ProviderEvents.ConfigurationChanged);
  t.deepEqual(changed?.flagsChanged, ['off']);
  t.is(provider.snapshotRevision, 2);
  t.like(await client.getStringDetails('off', 'none', { targetingKey: 'u1' }), { reason: 'DEFAULT', flagMetadata: { revision: 2 } });
  t.is(ensign.streams, 1, 'one stream, no reconnection');
});

test('a schedule passing flips the flag on the provider\'s clock and says so, with the flags that require it', async (t) => {
  const at = new Date(Date.now() + 400).toISOString();
  const document = defaultDocument();
  document.flags.push(
    flag('launch', { type: 'BOOLEAN_FLAG_TYPE', enabled: false, schedules: [{ at, enabled: true }] }),
    flag('after-launch', { type: 'BOOLEAN_FLAG_TYPE', enabled: true, prerequisites: [{ flagKey: 'launch', enabled: true }] }),
  );
  const ensign = await startEnsignDouble([document]);
  t.teardown(() => ensign.stop());
  const { provider, client, heard } = await providerClient({ url: ensign.url, ...FAST });
  t.teardown(() => provider.onClose());
  t.false(await client.getBooleanValue('launch', true, { targetingKey: 'u1' }));
  t.like(await client.getBooleanDetails('after-launch', true, { targetingKey: 'u1' }), { value: false, reason: 'PREREQUISITE_FAILED' });
  const changed = await heard.until(ProviderEvents.ConfigurationChanged);
  t.deepEqual(changed?.flagsChanged, ['after-launch', 'launch']);
  t.true(await client.getBooleanValue('launch', false, { targetingKey: 'u1' }));
  t.true(await client.getBooleanValue('after-launch', false, { targetingKey: 'u1' }));
});

test('without a stream route the snapshot is polled with If-None-Match, and a change arrives within the interval', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  ensign.hideStream = true;
  const { provider, client, heard } = await providerClient({ url: ensign.url, ...FAST });
  t.teardown(() => provider.onClose());
  t.is(await client.getStringValue('color', 'none', { targetingKey: 'u1', plan: 'pro' }), 'blue');
  ensign.publish(edited('color', 'polled'));
  t.deepEqual((await heard.until(ProviderEvents.ConfigurationChanged))?.flagsChanged, ['color']);
  t.true((ensign.requests.get('/internal/v1/evaluation/snapshot/namespace/default') ?? 0) >= 2);
});

test('a namespace that does not exist: its quiet stream is followed by a poll, every flag is FLAG_NOT_FOUND, and its creation arrives', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  const { provider, client, heard } = await providerClient({ url: ensign.url, namespace: 'later', ...FAST, pollIntervalMs: 60_000, initTimeoutMs: 3000 });
  t.teardown(() => provider.onClose());
  t.like(await client.getBooleanDetails('launch', true, { targetingKey: 'u1' }), { value: true, errorCode: 'FLAG_NOT_FOUND' });
  ensign.publish({ namespace: { key: 'later' }, flags: [flag('launch', { type: 'BOOLEAN_FLAG_TYPE', enabled: false })] });
  t.deepEqual((await heard.until(ProviderEvents.ConfigurationChanged))?.flagsChanged, ['launch']);
  t.false(await client.getBooleanValue('launch', true, { targetingKey: 'u1' }));
});

test('a snapshot older than the one held is ignored (a lagging evaluator behind the same address)', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  const bootstrap = { ...edited('off', 'newer'), revision: 9 };
  const { provider, client, heard } = await providerClient({ url: ensign.url, bootstrap, ...FAST });
  t.teardown(() => provider.onClose());
  await eventually(() => ensign.streams > 0);
  t.is((await client.getStringDetails('off', 'none', { targetingKey: 'u1' })).reason, 'DEFAULT', 'the bootstrap\'s answer');
  // The server's revisions 1 to 9 are none of them newer than the bootstrap's; its revision 10 is, and
  // it comes on the same stream after them. Once it is held, every older one was read and ignored.
  for (let revision = 2; revision <= 9; revision++) ensign.publish(defaultDocument());
  ensign.publish(edited('color', 'ten'));
  const changed = await heard.until(ProviderEvents.ConfigurationChanged);
  t.is(provider.snapshotRevision, 10);
  t.deepEqual([...(changed?.flagsChanged ?? [])].sort(), ['color', 'off'], 'changed from the bootstrap, not from an older snapshot');
  t.is(heard.events.filter((e) => e.type === ProviderEvents.ConfigurationChanged).length, 1, 'no older snapshot was taken on the way');
  t.is(ensign.streams, 1);
});

test('the hash the server announces wins over the option', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()], 'crc32');
  t.teardown(() => ensign.stop());
  const { provider, client } = await providerClient({ url: ensign.url, hash: 'murmur3', ...FAST });
  t.teardown(() => provider.onClose());
  t.is(provider.hash, 'crc32');
  // Flipt's crc32 vectors: entity 1 → boz, 2 → booz.
  t.is(await client.getStringValue('foo', 'none', { targetingKey: '1' }), 'boz');
  t.is(await client.getStringValue('foo', 'none', { targetingKey: '2' }), 'booz');
});

test('a proxy that answers every stream and drops it at once costs at most one attempt per floor delay', async (t) => {
  const attemptsAt: number[] = [];
  const proxy = createServer((req, res) => {
    if (req.url?.includes('/stream')) {
      attemptsAt.push(Date.now());
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end();
      return;
    }
    res.writeHead(503);
    res.end();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const { provider } = await providerClient({ url, bootstrap: defaultDocument(), ...FAST, reconnect: { minMs: 200, initialMs: 10, maxMs: 10 } });
  t.true(await eventually(() => attemptsAt.length >= 4), `${attemptsAt.length} attempts`);
  await provider.onClose();
  // A busy machine only spreads the attempts further apart; a missing floor would bring them 10 ms apart.
  const gaps = attemptsAt.slice(1).map((at, i) => at - (attemptsAt[i] ?? 0));
  t.true(gaps.every((gap) => gap >= 180), `attempts ${gaps.join(', ')} ms apart`);
});
