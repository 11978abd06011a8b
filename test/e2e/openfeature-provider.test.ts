/**
 * `@ensign/openfeature-provider` against the real `ensign server`: for 10,000 entities and every
 * flag of Flipt's readonly test data the provider answers as `POST /evaluate/v1/batch` does, under
 * crc32 and murmur3 (one server each); the lifecycle while the server is stopped and started again;
 * a change made through the API reaching the provider; a refused token; the evaluation counts
 * arriving in the usage and analytics APIs.
 */
import { join } from 'node:path';
import { EnsignProvider, type EnsignProviderOptions } from '@ensign/openfeature-provider';
import { eventually, freePort, jsonClient, type EnsignProcess, scratchDir, startEnsign } from '@ensign/testkit';
import { type Client, ErrorCode, OpenFeature, ProviderEvents, ProviderStatus } from '@openfeature/server-sdk';
import test from 'ava';
import { ok } from '../helpers/api.js';
import { FLIPT_READONLY_FILES, namespaceOfFile } from '../helpers/flipt-readonly-fixtures.js';
import { READONLY_TOKEN, startReadonlyServer } from '../helpers/flipt-readonly-servers.js';
import { compareWithServer, namespaceShape, parityEntities } from '../helpers/openfeature-provider-parity.js';

const ENTITIES = 10_000;
const quiet = (): void => undefined;
const SILENT = { error: quiet, warn: quiet, info: quiet, debug: quiet };
const FAST = { staleAfterMs: 500, errorAfterMs: 1500, pollIntervalMs: 1000, reconnect: { minMs: 100, initialMs: 200, maxMs: 500 }, logger: SILENT } as const;

let domains = 0;
async function bind(options: EnsignProviderOptions, wait = true): Promise<{ provider: EnsignProvider; client: Client; events: Array<{ type: ProviderEvents; flagsChanged?: string[] | undefined; errorCode?: unknown }>; ready: Promise<void> }> {
  const domain = `openfeature-e2e-${++domains}`;
  const client = OpenFeature.getClient(domain);
  const events: Array<{ type: ProviderEvents; flagsChanged?: string[] | undefined; errorCode?: unknown }> = [];
  for (const type of [ProviderEvents.Ready, ProviderEvents.Stale, ProviderEvents.Error, ProviderEvents.ConfigurationChanged]) {
    client.addHandler(type, (details) => events.push({ type, flagsChanged: details?.flagsChanged as string[] | undefined, errorCode: details?.errorCode }));
  }
  const provider = new EnsignProvider(options);
  const ready = OpenFeature.setProviderAndWait(domain, provider);
  if (wait) await ready;
  else ready.catch(() => undefined);
  return { provider, client, events, ready };
}

const hasEvent = (events: Array<{ type: ProviderEvents }>, type: ProviderEvents, after: number) => eventually(() => events.slice(after).some((e) => e.type === type));

/** Whether a server a request could not reach is still running, and the end of its output. */
async function serverState(server: EnsignProcess): Promise<string> {
  const code = await Promise.race([server.exited, new Promise<undefined>((resolve) => setImmediate(resolve, undefined))]);
  return `the server ${code === undefined ? 'is still running' : `exited with ${code}`}; its last output:\n${server.logs().slice(-3000)}`;
}

for (const hash of ['crc32', 'murmur3'] as const) {
  test.serial(`parity under ${hash}: 10,000 entities, every flag of Flipt's readonly data, the provider and POST /evaluate/v1/batch agree`, async (t) => {
    t.timeout(600_000);
    const server = await startReadonlyServer('import', 'main', { ENSIGN_EVALUATION_HASH: hash });
    t.teardown(() => server.stop());
    for (const file of FLIPT_READONLY_FILES) {
      const namespaceKey = namespaceOfFile(file);
      const { flags, pairs } = await namespaceShape(server.api, namespaceKey);
      const { provider, client } = await bind({ url: server.server.baseUrl, token: READONLY_TOKEN, namespace: namespaceKey, counts: false, logger: SILENT });
      t.teardown(() => provider.onClose());
      t.is(provider.hash, hash, 'the server\'s hash, as it announces it');
      const report = await compareWithServer(server.api, client, namespaceKey, flags, parityEntities(ENTITIES, pairs, hash === 'crc32' ? 1 : 2)).catch(async (err: unknown) => {
        t.log(await serverState(server.server));
        throw err;
      });
      t.is(report.compared, ENTITIES * flags.length);
      t.deepEqual(report.differences, [], `${namespaceKey}: ${flags.length} flags`);
      t.true((report.reasons.MATCH ?? 0) > ENTITIES, 'rules matched, not only defaults');
      t.log(`${namespaceKey}: ${flags.length} flags × ${ENTITIES} entities = ${report.compared} answers compared, by the server's reason ${JSON.stringify(report.reasons)}`);
    }
  });
}

/** `ensign server` on a SQLite file and fixed ports, so it can be stopped and started again as the same server. */
async function restartableServer(extra: Record<string, string> = {}): Promise<{ env: Record<string, string>; server: EnsignProcess; url: string }> {
  const env = {
    ENSIGN_DB_URL: `file:${join(scratchDir('ensign-openfeature-'), 'ensign.db')}`,
    ENSIGN_SERVER_HTTP_PORT: String(await freePort()),
    ENSIGN_SERVER_GRPC_PORT: String(await freePort()),
    ENSIGN_LOG_LEVEL: 'warn',
    ENSIGN_ANALYTICS_BUFFER_FLUSH_PERIOD: '1s',
    ...extra,
  };
  const server = await startEnsign({ env });
  return { env, server, url: server.baseUrl };
}

async function seed(url: string, headers: Record<string, string> = {}): Promise<void> {
  const api = jsonClient(url);
  ok(await api.post('/api/v1/namespaces/default/flags', { key: 'checkout', name: 'Checkout', type: 'BOOLEAN_FLAG_TYPE', enabled: true }, headers));
  ok(await api.post('/api/v1/namespaces/default/flags', { key: 'color', name: 'Color', enabled: true }, headers));
  const blue = ok(await api.post('/api/v1/namespaces/default/flags/color/variants', { key: 'blue', name: 'Blue', attachment: '{"hex":"#00f"}' }, headers));
  ok(await api.put('/api/v1/namespaces/default/flags/color', { name: 'Color', enabled: true, defaultVariantId: blue.id }, headers));
}

test.serial('lifecycle with the server stopped and started again: READY → STALE → ERROR, answers from the last snapshot, READY; then a change through the API reaches the provider', async (t) => {
  const running = await restartableServer();
  let server = running.server;
  t.teardown(() => server.stop());
  await seed(running.url);
  const { provider, client, events } = await bind({ url: running.url, counts: false, ...FAST });
  t.teardown(() => provider.onClose());
  t.is(await client.getStringValue('color', 'none', { targetingKey: 'u1' }), 'blue');
  const before = events.length;

  t.is(await server.stop(), 0);
  t.true(await hasEvent(events, ProviderEvents.Stale, before));
  t.is(await client.getStringValue('color', 'none', { targetingKey: 'u1' }), 'blue', 'STALE answers from the last snapshot');
  t.true(await hasEvent(events, ProviderEvents.Error, before));
  t.is(client.providerStatus, ProviderStatus.ERROR);
  const during = await client.getBooleanDetails('checkout', false, { targetingKey: 'u1' });
  t.like(during, { value: true, reason: 'DEFAULT' });
  t.is(during.errorCode, undefined, 'ERROR answers from the last snapshot too');

  const down = events.length;
  server = await startEnsign({ env: running.env });
  t.true(await hasEvent(events, ProviderEvents.Ready, down));
  t.is(client.providerStatus, ProviderStatus.READY);
  t.deepEqual(events.slice(before).map((e) => e.type), [ProviderEvents.Stale, ProviderEvents.Error, ProviderEvents.Ready]);

  const beforeChange = events.length;
  ok(await jsonClient(running.url).put('/api/v1/namespaces/default/flags/checkout', { name: 'Checkout', enabled: false }));
  t.true(await hasEvent(events, ProviderEvents.ConfigurationChanged, beforeChange));
  t.deepEqual(events.slice(beforeChange).find((e) => e.type === ProviderEvents.ConfigurationChanged)?.flagsChanged, ['checkout']);
  t.false(await client.getBooleanValue('checkout', true, { targetingKey: 'u1' }));
});

test.serial('a token the server refuses is FATAL; the right one is READY', async (t) => {
  const token = 'openfeature-e2e-token';
  const { server, url } = await restartableServer({
    ENSIGN_AUTHENTICATION_REQUIRED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_ENABLED: 'true',
    ENSIGN_AUTHENTICATION_METHODS_TOKEN_BOOTSTRAP_TOKEN: token,
  });
  t.teardown(() => server.stop());
  await seed(url, { Authorization: `Bearer ${token}` });
  const refused = await bind({ url, token: 'not-a-token', counts: false, ...FAST }, false);
  t.teardown(() => refused.provider.onClose());
  const err = await t.throwsAsync(refused.ready);
  t.is((err as { code?: string }).code, ErrorCode.PROVIDER_FATAL);
  t.is(refused.client.providerStatus, ProviderStatus.FATAL);
  t.like(await refused.client.getBooleanDetails('checkout', false, { targetingKey: 'u1' }), { value: false, errorCode: ErrorCode.PROVIDER_FATAL });
  const accepted = await bind({ url, token, counts: false, ...FAST });
  t.teardown(() => accepted.provider.onClose());
  t.true(await accepted.client.getBooleanValue('checkout', false, { targetingKey: 'u1' }));
});

test.serial('evaluation counts arrive in the flag usage API and Flipt\'s analytics API', async (t) => {
  const { server, url } = await restartableServer();
  t.teardown(() => server.stop());
  await seed(url);
  const { provider, client } = await bind({ url, ...FAST, counts: { flushIntervalMs: 300 } });
  t.teardown(() => provider.onClose());
  for (let i = 0; i < 25; i++) await client.getBooleanValue('checkout', false, { targetingKey: `u${i}` });
  for (let i = 0; i < 7; i++) await client.getStringValue('color', 'none', { targetingKey: `u${i}` });
  const api = jsonClient(url);
  const usage = async (flag: string) => ok(await api.get(`/api/v1/namespaces/default/flags/${flag}/usage`));
  t.true(await eventually(async () => (await usage('checkout')).evaluations === 25 && (await usage('color')).evaluations === 7));
  t.deepEqual((await usage('checkout')).values, [{ value: 'true', count: 25 }]);
  t.deepEqual((await usage('color')).values, [{ value: 'blue', count: 7 }]);
  const now = Date.now();
  const range = `from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 60_000).toISOString()}`;
  const series = ok<{ values: number[] }>(await api.get(`/internal/v1/analytics/namespaces/default/flags/checkout?${range}`));
  t.is(series.values.reduce((a, b) => a + b, 0), 25);
  const listed = ok<{ flags: Array<{ flagKey: string; evaluations: number; lastEvaluatedAt: string | null }> }>(await api.get('/api/v1/namespaces/default/usage'));
  t.like(listed.flags.find((f) => f.flagKey === 'checkout'), { evaluations: 25 });
  t.truthy(listed.flags.find((f) => f.flagKey === 'checkout')?.lastEvaluatedAt, 'stale-flag detection sees it evaluated');
});
