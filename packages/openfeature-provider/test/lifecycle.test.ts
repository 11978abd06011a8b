/**
 * flagd's lifecycle against an Ensign that goes away and comes back: READY from the stream, STALE
 * after the grace period, ERROR after longer, answers from the last snapshot all along, READY when
 * it is back; FATAL when the credential is refused; what is answered when Ensign is unreachable
 * from the start, with and without a bootstrap.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { eventually } from '@ensign/testkit';
import { defaultDocument } from '@ensign/testkit/snapshot-fixtures';
import { ErrorCode, ProviderEvents, ProviderStatus } from '@openfeature/server-sdk';
import { startEnsignDouble } from './helpers/ensign-double.js';
import { FAST, providerClient } from './helpers/provider-events.js';

const PRO = { targetingKey: 'u1', plan: 'pro' };

test('READY → STALE → ERROR while Ensign is away, answering from the last snapshot, READY again when it is back', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  const { provider, client, heard } = await providerClient({ url: ensign.url, ...FAST });
  t.teardown(() => provider.onClose());
  t.is(client.providerStatus, ProviderStatus.READY);
  t.like(await client.getStringDetails('color', 'none', PRO), { value: 'blue', flagMetadata: { revision: 1 } });
  const before = heard.events.length;

  await ensign.stop();
  t.truthy(await heard.until(ProviderEvents.Stale, before));
  t.is(client.providerStatus, ProviderStatus.STALE);
  t.like(await client.getStringDetails('color', 'none', PRO), { value: 'blue', reason: 'TARGETING_MATCH' }, 'the last snapshot answers');
  const error = await heard.until(ProviderEvents.Error, before);
  t.truthy(error);
  t.is(error?.errorCode, undefined, 'an error, not a fatal one');
  t.is(client.providerStatus, ProviderStatus.ERROR);
  const during = await client.getStringDetails('color', 'none', PRO);
  t.like(during, { value: 'blue', reason: 'TARGETING_MATCH' });
  t.is(during.errorCode, undefined);

  const down = heard.events.length;
  await ensign.start();
  t.truthy(await heard.until(ProviderEvents.Ready, down));
  t.is(client.providerStatus, ProviderStatus.READY);
  t.deepEqual(heard.types().slice(before), [ProviderEvents.Stale, ProviderEvents.Error, ProviderEvents.Ready]);
});

test('a refused credential at start is FATAL: setProviderAndWait rejects, every evaluation answers PROVIDER_FATAL', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  ensign.refuseWith = 401;
  const { provider, client, ready } = await providerClient({ url: ensign.url, token: 'wrong', ...FAST }, false);
  t.teardown(() => provider.onClose());
  const err = await t.throwsAsync(ready);
  t.is((err as { code?: string }).code, ErrorCode.PROVIDER_FATAL);
  t.is(client.providerStatus, ProviderStatus.FATAL);
  t.like(await client.getBooleanDetails('five', true, PRO), { value: true, reason: 'ERROR', errorCode: ErrorCode.PROVIDER_FATAL });
  const asked = [...ensign.requests.values()].reduce((a, b) => a + b, 0);
  // A provider on the same schedule whose server fails every request keeps trying: once it has
  // tried three times, the refused one would have tried again too.
  let controlAsked = 0;
  const failing = createServer((_req, res) => {
    controlAsked++;
    res.writeHead(503);
    res.end();
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => failing.close(() => resolve())));
  const control = await providerClient({ url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}`, bootstrap: defaultDocument(), ...FAST });
  t.teardown(() => control.provider.onClose());
  t.true(await eventually(() => controlAsked >= 3), 'the control provider kept trying');
  t.is([...ensign.requests.values()].reduce((a, b) => a + b, 0), asked, 'nothing more is tried');
});

test('a credential refused later (a deleted token) is FATAL through an error event with PROVIDER_FATAL', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  const { provider, client, heard } = await providerClient({ url: ensign.url, ...FAST });
  t.teardown(() => provider.onClose());
  ensign.refuseWith = 403;
  await ensign.stop();
  await ensign.start();
  const fatal = await heard.until(ProviderEvents.Error);
  t.is(fatal?.errorCode, ErrorCode.PROVIDER_FATAL);
  t.is(client.providerStatus, ProviderStatus.FATAL);
  t.is(provider.state, 'FATAL');
});

test('unreachable from the start without a bootstrap: initialize gives up (ERROR), answers are the caller\'s defaults, READY once Ensign answers', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  await ensign.stop();
  const { provider, client, heard, ready } = await providerClient({ url: ensign.url, ...FAST, initTimeoutMs: 300 }, false);
  t.teardown(() => provider.onClose());
  await t.throwsAsync(ready, { message: /no snapshot of namespace "default" .* within 300 ms; still trying/ });
  t.is(client.providerStatus, ProviderStatus.ERROR);
  t.like(await client.getStringDetails('color', 'none', PRO), { value: 'none', reason: 'ERROR', errorCode: ErrorCode.PROVIDER_NOT_READY });
  const before = heard.events.length;
  await ensign.start();
  t.truthy(await heard.until(ProviderEvents.Ready, before));
  t.is(client.providerStatus, ProviderStatus.READY);
  t.is(await client.getStringValue('color', 'none', PRO), 'blue');
});

test('unreachable from the start with a bootstrap: READY from it, STALE and ERROR on time, then Ensign\'s snapshot with the flags it changed', async (t) => {
  const ensign = await startEnsignDouble([defaultDocument()]);
  t.teardown(() => ensign.stop());
  await ensign.stop();
  const bootstrap = defaultDocument();
  bootstrap.flags = bootstrap.flags.filter((f) => f.key !== 'five');
  const { provider, client, heard } = await providerClient({ url: ensign.url, bootstrap, hash: 'murmur3', ...FAST });
  t.teardown(() => provider.onClose());
  t.is(client.providerStatus, ProviderStatus.READY);
  t.is(await client.getStringValue('color', 'none', PRO), 'blue', 'answered from the bootstrap');
  t.truthy(await heard.until(ProviderEvents.Stale));
  t.truthy(await heard.until(ProviderEvents.Error));
  const before = heard.events.length;
  await ensign.start();
  const changed = await heard.until(ProviderEvents.ConfigurationChanged, before);
  t.deepEqual(changed?.flagsChanged, ['five']);
  t.truthy(await heard.until(ProviderEvents.Ready, before));
  t.like(await client.getBooleanDetails('five', false, PRO), { flagMetadata: { revision: 1 } });
});
