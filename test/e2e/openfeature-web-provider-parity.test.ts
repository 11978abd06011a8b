/**
 * The web provider in Chromium gives the answers `POST /evaluate/v1/batch` gives, for every flag of
 * Flipt's readonly test data and thousands of entities, in both hash modes: each server announces
 * its `evaluation.hash` in the snapshot it serves, and the provider buckets with it. The servers
 * require authentication (as Flipt's suite runs), so the provider presents a token and reads the
 * stream with `fetch`; a token Ensign refuses makes it FATAL.
 */
import test, { type ExecutionContext } from 'ava';
import { bundleWebProvider, type WebBundles } from '../helpers/openfeature-web-bundle.js';
import { batchLines, type EntityContext, flagsOf } from '../helpers/openfeature-web-expected.js';
import { openProviderPage } from '../helpers/openfeature-web-page.js';
import { READONLY_TOKEN, type ReadonlyServer, startReadonlyServer } from '../helpers/flipt-readonly-servers.js';
import { useBrowser } from '../helpers/ui-browser.js';

/** Entities per hash mode; `ENSIGN_WEB_PARITY_ENTITIES` changes it. */
const ENTITIES = Number(process.env['ENSIGN_WEB_PARITY_ENTITIES'] ?? 10_000);
/** Entities the page answers in one call, and server requests in flight at once. */
const CHUNK = 500;
const IN_FLIGHT = 8;
const NAMESPACE = 'default';
const HASHES = ['crc32', 'murmur3'] as const;

const chromium = useBrowser(test);
const servers = new Map<(typeof HASHES)[number], ReadonlyServer>();
let bundles: WebBundles;

test.serial.before(async () => {
  const [crc32, murmur3, built] = await Promise.all([
    startReadonlyServer('import', 'main', { ENSIGN_EVALUATION_HASH: 'crc32' }),
    startReadonlyServer('import', 'main', { ENSIGN_EVALUATION_HASH: 'murmur3' }),
    bundleWebProvider(),
  ]);
  servers.set('crc32', crc32).set('murmur3', murmur3);
  bundles = built;
});

test.after.always(async () => {
  await Promise.all([...servers.values()].map((server) => server.stop()));
});

const pad = (n: number): string => String(n).padStart(3, '0');

/**
 * Entities that reach every kind of rule of the data: each of its 50 segments (`in_segment`), none,
 * the AND of `segment_001` and `segment_anding`, and the entity id one segment matches.
 */
function entityAt(i: number): EntityContext {
  const segment = i % 53;
  const context: EntityContext = { targetingKey: i % 97 === 0 ? 'user@flipt.io' : `entity-${i}` };
  if (segment < 50) context['in_segment'] = `segment_${pad(segment + 1)}`;
  if (i % 4 === 0) context['anding'] = 'segment';
  return context;
}

/** The server's answers for `entities`, a few requests at a time. */
async function serverLines(server: ReadonlyServer, flags: Parameters<typeof batchLines>[2], entities: EntityContext[]): Promise<string[][]> {
  const lines: string[][] = [];
  for (let i = 0; i < entities.length; i += IN_FLIGHT) {
    lines.push(...(await Promise.all(entities.slice(i, i + IN_FLIGHT).map((entity) => batchLines(server.api, NAMESPACE, flags, entity)))));
  }
  return lines;
}

for (const hash of HASHES) {
  test.serial(`${hash}: every flag, ${ENTITIES} entities, the page answers as POST /evaluate/v1/batch`, async (t: ExecutionContext) => {
    t.timeout(10 * 60_000);
    const server = servers.get(hash)!;
    const flags = await flagsOf(server.api, NAMESPACE);
    t.true(flags.length > 50, `${flags.length} flags`);
    const page = await openProviderPage(t, chromium.browser, server.server.baseUrl, bundles);
    // The provider is left on its default hash: the server's announcement decides.
    t.deepEqual(await page.start({ url: server.server.baseUrl, namespace: NAMESPACE, token: READONLY_TOKEN }, entityAt(0)), { status: 'READY' });
    const mismatches: string[] = [];
    let compared = 0;
    let matched = 0;
    for (let start = 0; start < ENTITIES; start += CHUNK) {
      const entities = Array.from({ length: Math.min(CHUNK, ENTITIES - start) }, (_, i) => entityAt(start + i));
      const [inPage, expected] = await Promise.all([page.lines(entities, flags), serverLines(server, flags, entities)]);
      entities.forEach((entity, e) =>
        flags.forEach((flag, f) => {
          compared++;
          if (inPage[e]?.[f]?.includes('|MATCH|') === true) matched++;
          if (inPage[e]?.[f] !== expected[e]?.[f]) mismatches.push(`${JSON.stringify(entity)} ${flag.key}: page ${inPage[e]?.[f]}, server ${expected[e]?.[f]}`);
        }),
      );
    }
    t.is(compared, ENTITIES * flags.length);
    t.true(matched > compared / 20, `${matched} of ${compared} answers are matches: the entities reach the rules`);
    t.deepEqual(mismatches.slice(0, 20), [], `${mismatches.length} of ${compared} answers differ`);
    await page.close();
  });
}

test.serial('a token Ensign refuses makes the provider FATAL', async (t) => {
  const server = servers.get('crc32')!;
  const page = await openProviderPage(t, chromium.browser, server.server.baseUrl, bundles);
  const started = await page.start({ url: server.server.baseUrl, namespace: NAMESPACE, token: 'not-a-token' }, entityAt(1));
  t.is(started.status, 'FATAL');
  t.regex(started.error ?? '', /HTTP 401/);
  await page.close();
});
