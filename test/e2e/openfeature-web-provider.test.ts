/**
 * `@ensign/openfeature-web-provider` in a real Chromium against a real `ensign server`: the web SDK
 * and the provider, bundled by Vite, load in a page on the server's origin, read the namespace's
 * snapshot and follow its SSE stream. The provider becomes READY and answers every flag as
 * `POST /evaluate/v1/*` does for the same context; a change that moves this context's answer is
 * announced naming that flag, one that does not is not announced; a stopped server makes it STALE
 * then ERROR (answering from the last snapshot) and a restarted one READY again.
 */
import { type EnsignProcess, freePort, type JsonClient, jsonClient, startEnsign } from '@ensign/testkit';
import test, { type ExecutionContext } from 'ava';
import { ok } from '../helpers/api.js';
import { bundleWebProvider, type WebBundles } from '../helpers/openfeature-web-bundle.js';
import { type EntityContext, flagsOf, singleLines } from '../helpers/openfeature-web-expected.js';
import { openProviderPage, type PageFlag, type ProviderPage } from '../helpers/openfeature-web-page.js';
import { SHOP, seedShop } from '../helpers/openfeature-web-shop.js';
import { useBrowser } from '../helpers/ui-browser.js';

const chromium = useBrowser(test);
let server: EnsignProcess;
let api: JsonClient;
let bundles: WebBundles;
let flags: PageFlag[];

test.serial.before(async () => {
  [server, bundles] = await Promise.all([startEnsign({ env: { ENSIGN_LOG_LEVEL: 'warn' } }), bundleWebProvider()]);
  api = jsonClient(server.baseUrl);
  await seedShop(api);
  flags = await flagsOf(api, SHOP);
});

test.after.always(async () => {
  await server?.stop();
});

/** Short lifecycle timings, so the test sees STALE and ERROR within seconds. */
const OPTIONS = { namespace: SHOP, staleAfterMs: 300, errorAfterMs: 1_500, retry: { initialDelayMs: 200, maxDelayMs: 1_000 } };

async function readyPage(t: ExecutionContext, context: EntityContext): Promise<ProviderPage> {
  const page = await openProviderPage(t, chromium.browser, server.baseUrl, bundles);
  // The page is on the server's origin: the provider's url is the origin itself.
  t.deepEqual(await page.start({ ...OPTIONS, url: server.baseUrl }, context), { status: 'READY' });
  return page;
}

/** The snapshot version the provider answers from (every answer names it). */
const versionOf = async (page: ProviderPage): Promise<unknown> => (await page.answers([flags[0]!]))[flags[0]!.key]?.metadata['version'];

test.serial('READY, and every flag answers as POST /evaluate/v1 does for the same context', async (t) => {
  const contexts: EntityContext[] = Array.from({ length: 30 }, (_, i) => ({ targetingKey: `user-${i}`, plan: i % 3 === 0 ? 'beta' : 'free' }));
  const page = await readyPage(t, contexts[0]!);
  const inPage = await page.lines(contexts, flags);
  for (const [i, context] of contexts.entries()) {
    t.deepEqual(inPage[i], await singleLines(api, SHOP, flags, context), `${context.targetingKey} (${context.plan})`);
  }
  await page.close();
});

test.serial('OpenFeature reasons, variants, attachments and metadata', async (t) => {
  const page = await readyPage(t, { targetingKey: 'user-0', plan: 'beta' });
  const beta = await page.answers(flags);
  t.like(beta['checkout-button'], { reason: 'SPLIT', metadata: { segments: 'beta-testers' } });
  t.true(['blue', 'green'].includes(String(beta['checkout-button']?.value)));
  t.like(beta['banner'], { value: 'spring', variant: 'spring', reason: 'TARGETING_MATCH', attachment: { title: 'Spring sale', discount: 20 } });
  t.like(beta['legacy-nav'], { value: '', reason: 'DISABLED' });
  t.like(beta['empty'], { value: '', reason: 'DEFAULT' });
  t.like(beta['new-search'], { value: true, variant: 'true', reason: 'TARGETING_MATCH' });
  t.like(beta['dark-mode'], { value: true, reason: 'DEFAULT' });
  t.like(beta['search-banner'], { value: 'sunrise', reason: 'TARGETING_MATCH' });
  t.regex(String(beta['banner']?.metadata['version']), /^[0-9a-f]{40}$/);

  // A free entity outside new-search's 30 %: search-banner's prerequisite fails for it alone.
  let outside: EntityContext | undefined;
  for (let i = 0; outside === undefined; i++) {
    const candidate = { targetingKey: `visitor-${i}`, plan: 'free' };
    if (!ok<{ enabled: boolean }>(await api.post('/evaluate/v1/boolean', { namespaceKey: SHOP, flagKey: 'new-search', entityId: candidate.targetingKey, context: { plan: 'free' } })).enabled) outside = candidate;
  }
  await page.setContext(outside);
  const free = await page.answers(flags);
  t.like(free['checkout-button'], { value: 'red', variant: 'red', reason: 'DEFAULT', attachment: { hex: '#ff0000' } });
  t.like(free['search-banner'], { value: '', reason: 'PREREQUISITE_FAILED', metadata: { failedPrerequisite: 'new-search' } });
  t.like((await page.answers([{ key: 'nope', type: 'BOOLEAN_FLAG_TYPE' }]))['nope'], { value: false, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
  t.like((await page.answers([{ key: 'banner', type: 'BOOLEAN_FLAG_TYPE' }]))['banner'], { value: false, errorCode: 'TYPE_MISMATCH' });
  await page.close();
});

test.serial('a change that moves this context\'s answer is announced naming that flag; one that does not, not at all', async (t) => {
  const page = await readyPage(t, { targetingKey: 'user-1', plan: 'free' });
  const before = await versionOf(page);
  // Beta testers become another plan: a free user's answers stay as they were.
  const constraint = ok<{ constraints: Array<{ id: string }> }>(await api.get(`/api/v1/namespaces/${SHOP}/segments/beta-testers`)).constraints[0]!;
  ok(await api.put(`/api/v1/namespaces/${SHOP}/segments/beta-testers/constraints/${constraint.id}`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'early-access' }));
  await page.waitForSnapshotAfter(flags[0]!, before);
  t.deepEqual((await page.events()).filter((event) => event.type === 'PROVIDER_CONFIGURATION_CHANGED'), [], 'nothing announced');

  ok(await api.put(`/api/v1/namespaces/${SHOP}/flags/banner`, { name: 'banner', enabled: false }));
  await page.waitForEvent('PROVIDER_CONFIGURATION_CHANGED');
  t.deepEqual((await page.events()).filter((event) => event.type === 'PROVIDER_CONFIGURATION_CHANGED'), [{ type: 'PROVIDER_CONFIGURATION_CHANGED', flagsChanged: ['banner'] }]);
  t.like((await page.answers([{ key: 'banner', type: 'VARIANT_FLAG_TYPE' }]))['banner'], { value: '', reason: 'DISABLED' });
  await page.close();
});

test.serial('Ensign unreachable from the start: ERROR and the caller\'s defaults without a bootstrap, READY from one with it, then STALE', async (t) => {
  const nowhere = `http://127.0.0.1:${await freePort()}`;
  const context = { targetingKey: 'user-0', plan: 'beta' };
  const bare = await openProviderPage(t, chromium.browser, server.baseUrl, bundles);
  t.deepEqual(await bare.start({ ...OPTIONS, url: nowhere, initTimeoutMs: 500 }, context), { status: 'ERROR', error: 'no snapshot from Ensign within 500 ms; still trying' });
  t.like((await bare.answers(flags))['banner'], { value: '', reason: 'ERROR', errorCode: 'PROVIDER_NOT_READY' });
  await bare.close();

  const bootstrap = ok<unknown>(await api.get(`/internal/v1/evaluation/snapshot/namespace/${SHOP}?format=ensign`));
  const booted = await openProviderPage(t, chromium.browser, server.baseUrl, bundles);
  t.deepEqual(await booted.start({ ...OPTIONS, url: nowhere, bootstrap }, context), { status: 'READY' });
  const expected = await singleLines(api, SHOP, flags, context);
  t.deepEqual((await booted.lines([context], flags))[0], expected, 'the bootstrap\'s answers');
  await booted.waitForStatus('STALE');
  t.deepEqual((await booted.lines([context], flags))[0], expected, 'still the bootstrap\'s answers');
  await booted.close();
});

test.serial('a stopped server: STALE, then ERROR, answering from the last snapshot; restarted: READY, and changes flow again', async (t) => {
  const page = await readyPage(t, { targetingKey: 'user-0', plan: 'free' });
  const before = await page.answers(flags);
  const { port, cwd } = server;
  t.is(await server.stop(), 0);
  await page.waitForStatus('STALE');
  await page.waitForStatus('ERROR');
  t.deepEqual(await page.answers(flags), before, 'the answers of the last snapshot');

  server = await startEnsign({ cwd, env: { ENSIGN_LOG_LEVEL: 'warn', ENSIGN_SERVER_HTTP_PORT: String(port) } });
  api = jsonClient(server.baseUrl);
  await page.waitForStatus('READY');
  const types = (await page.events()).map((event) => event.type);
  t.deepEqual(types.slice(-3), ['PROVIDER_STALE', 'PROVIDER_ERROR', 'PROVIDER_READY']);

  ok(await api.put(`/api/v1/namespaces/${SHOP}/flags/dark-mode`, { name: 'Dark mode', enabled: false }));
  await page.waitForEvent('PROVIDER_CONFIGURATION_CHANGED');
  t.like((await page.answers([{ key: 'dark-mode', type: 'BOOLEAN_FLAG_TYPE' }]))['dark-mode'], { value: false, reason: 'DEFAULT' });
  await page.close();
});
