/** An import through a cached store: the reads cached before it see what it wrote, the namespace list included. */
import test from 'ava';
import { CacheInvalidator } from '../src/cache/cache-invalidator.js';
import { MemoryReadCache } from '../src/cache/memory-read-cache.js';
import { withReadCache } from '../src/index.js';
import { countersFor } from './cache-helpers.js';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  const cache = new MemoryReadCache({ ttlMs: 600_000, maxEntries: 1000, counters: countersFor('memory').counters });
  h = await startHarness({ wrapStore: (store) => withReadCache(store, cache), listen: () => new CacheInvalidator(cache).notify });
});
test.after.always(() => h?.close());

const yaml = { 'content-type': 'application/yaml' };

test('reads cached before an import see what it wrote', async (t) => {
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'cached', name: 'Cached' } });
  await h.call('POST', '/api/v1/namespaces/cached/flags', { json: { key: 'old', name: 'Old' } });
  for (let i = 0; i < 2; i++) {
    await h.call('GET', '/api/v1/namespaces/cached/flags');
    await h.call('GET', '/api/v1/namespaces');
  }
  const replaced = await h.call('POST', '/api/v1/namespaces/cached/import?drop=true', { body: 'flags:\n- key: new\n  name: New\n', headers: yaml });
  t.is(replaced.status, 200, replaced.text);
  t.deepEqual((await h.call('GET', '/api/v1/namespaces/cached/flags')).json.flags.map((f: { key: string }) => f.key), ['new']);

  const created = await h.call('POST', '/api/v1/namespaces/brand-new/import', { body: 'namespace: {key: brand-new, name: Brand new}\nflags: []\n', headers: yaml });
  t.is(created.status, 200, created.text);
  t.true((await h.call('GET', '/api/v1/namespaces')).json.namespaces.some((n: { key: string }) => n.key === 'brand-new'));
});
