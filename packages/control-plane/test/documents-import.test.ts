/**
 * `POST /api/v1/namespaces/{ns}/import`: one Flipt document into one namespace, previewed with
 * `dryRun=true` (which writes nothing), applied in one change; refusals name the field.
 */
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { parse, stringify } from 'yaml';
import { seedShop, shopDocument } from './documents-seed.js';
import { type Harness, invalidBody, type Reply, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness({ snapshots: true });
  await seedShop(h.call, 'shop');
});
test.after.always(() => h?.close());

const none = { created: [], updated: [], deleted: [], unchanged: [] };

/** Posts `doc` (YAML unless given as text with its Content-Type). */
function importInto(ns: string, query: string, doc: unknown, contentType = 'application/yaml'): Promise<Reply> {
  const body = typeof doc === 'string' ? doc : contentType === 'application/json' ? JSON.stringify(doc) : stringify(doc);
  return h.call('POST', `/api/v1/namespaces/${ns}/import${query === '' ? '' : `?${query}`}`, { body, headers: { 'content-type': contentType } });
}

/** The namespace's export, parsed; undefined when the namespace does not exist. */
async function exported(ns: string): Promise<any> {
  const res = await h.call('GET', `/api/v1/namespaces/${ns}/export`);
  return res.status === 404 ? undefined : parse(res.text);
}

/** How many changes the namespace's history holds. */
const changes = async (ns: string): Promise<number> => (await h.call('GET', `/api/v1/namespaces/${ns}/audit/events?limit=1`)).json.totalCount;

/** The shop's document without its namespace, to import anywhere. */
function portable(): any {
  const { namespace: _, ...doc } = shopDocument('x');
  return doc;
}

test.serial('an export imports into another namespace: previewed first, then applied as one change', async (t) => {
  const text = (await h.call('GET', '/api/v1/namespaces/shop/export')).text;
  const doc = parse(text);
  delete doc.namespace;
  await h.call('POST', '/api/v1/namespaces', { json: { key: 'copy', name: 'Copy' } });
  const before = await changes('copy');

  const preview = await importInto('copy', 'dryRun=true', doc);
  t.is(preview.status, 200, preview.text);
  t.deepEqual(preview.json, {
    namespace: 'copy',
    flags: { ...none, created: ['checkout', 'banner'] },
    segments: { ...none, created: ['beta', 'staff'] },
  });
  t.deepEqual((await exported('copy')).flags, undefined, 'a dry run writes nothing');
  t.is(await changes('copy'), before);

  const applied = await importInto('copy', '', doc);
  t.is(applied.status, 200, applied.text);
  t.like(applied.json, { namespace: 'copy', flags: { ...none, created: ['checkout', 'banner'] }, segments: { ...none, created: ['beta', 'staff'] } });
  t.is(typeof applied.json.revision, 'number');
  t.deepEqual(await exported('copy'), { ...shopDocument('copy'), namespace: { key: 'copy', name: 'Copy' } });
  t.is(await changes('copy'), before + 1, 'one change for the whole import');
  t.deepEqual(h.source.peek('copy')?.snapshot.document.flags.map((f) => f.key).sort(), ['banner', 'checkout'], 'evaluation holds the imported flags');
});

test.serial('a key already there refuses the import, previewed or not, and nothing is written', async (t) => {
  const before = await changes('copy');
  for (const query of ['dryRun=true', '']) {
    const res = await importInto('copy', query, { flags: [{ key: 'fresh', name: 'Fresh' }, portable().flags[0]] });
    t.is(res.status, 400, query);
    t.deepEqual(res.json, invalidBody('document 1 (namespace "copy"): flags[1].key: flag "checkout" already exists in namespace "copy"'));
  }
  t.is((await h.call('GET', '/api/v1/namespaces/copy/flags/fresh')).status, 404);
  t.is(await changes('copy'), before);
});

test.serial('skipExisting leaves keys that are there as they are and creates the rest', async (t) => {
  const doc = { flags: [{ key: 'checkout', name: 'Renamed', type: 'VARIANT_FLAG_TYPE' }, { key: 'extra', name: 'Extra' }], segments: [{ key: 'beta', name: 'Other beta' }] };
  const preview = await importInto('copy', 'skipExisting=true&dryRun=true', doc);
  t.deepEqual(preview.json, { namespace: 'copy', flags: { ...none, created: ['extra'], unchanged: ['checkout'] }, segments: { ...none, unchanged: ['beta'] } });
  const applied = await importInto('copy', 'skipExisting=true', doc);
  t.is(applied.status, 200, applied.text);
  t.is((await h.call('GET', '/api/v1/namespaces/copy/flags/checkout')).json.name, 'Checkout');
  t.is((await h.call('GET', '/api/v1/namespaces/copy/flags/extra')).json.name, 'Extra');
  t.is((await h.call('GET', '/api/v1/namespaces/copy/segments/beta')).json.name, 'Beta');
});

test.serial('drop replaces everything: the preview tells created, updated, deleted and unchanged apart', async (t) => {
  const doc = portable();
  doc.flags[0].name = 'Checkout v2';
  doc.flags = [doc.flags[0], { key: 'newcomer', name: 'Newcomer' }];
  const preview = await importInto('copy', 'drop=true&dryRun=true', doc);
  t.is(preview.status, 200, preview.text);
  t.deepEqual(preview.json, {
    namespace: 'copy',
    flags: { created: ['newcomer'], updated: ['checkout'], deleted: ['banner', 'extra'], unchanged: [] },
    segments: { ...none, unchanged: ['beta', 'staff'] },
  });
  t.is((await h.call('GET', '/api/v1/namespaces/copy/flags/banner')).status, 200, 'a dry run deletes nothing');

  const applied = await importInto('copy', 'drop=true', doc);
  t.is(applied.status, 200, applied.text);
  const after = await exported('copy');
  t.deepEqual(after.flags.map((f: { key: string; name: string }) => [f.key, f.name]), [['checkout', 'Checkout v2'], ['newcomer', 'Newcomer']]);
  t.deepEqual(after.segments.map((s: { key: string }) => s.key), ['beta', 'staff']);
});

test('a namespace that does not exist yet is created by the import', async (t) => {
  t.deepEqual((await importInto('fresh-ns', 'dryRun=true', portable())).json.flags.created, ['checkout', 'banner']);
  t.is((await h.call('GET', '/api/v1/namespaces/fresh-ns')).status, 404, 'not by the preview');
  const applied = await importInto('fresh-ns', '', { namespace: { key: 'fresh-ns', name: 'Fresh', description: 'made by import' }, ...portable() });
  t.is(applied.status, 200, applied.text);
  t.like((await h.call('GET', '/api/v1/namespaces/fresh-ns')).json, { key: 'fresh-ns', name: 'Fresh', description: 'made by import' });
});

test('a JSON body is read as JSON by its Content-Type, a `# comment` first line allowed', async (t) => {
  const doc = { version: '1.4', flags: [{ key: 'from-json', name: 'From JSON' }] };
  const res = await importInto('default', 'dryRun=true', `# exported by flipt\n${JSON.stringify(doc)}`, 'application/json');
  t.is(res.status, 200, res.text);
  t.deepEqual(res.json.flags.created, ['from-json']);
  const bad = await importInto('default', 'dryRun=true', '{"flags": [', 'application/json; charset=utf-8');
  t.is(bad.status, 400);
  t.regex(bad.json.message, /^document 1: not valid JSON: /);
});

test('a document for another namespace is refused naming `namespace`', async (t) => {
  for (const namespace of ['staging', { key: 'staging', name: 'Staging' }]) {
    const res = await importInto('copy', 'dryRun=true', { namespace, flags: [] });
    t.is(res.status, 400);
    t.deepEqual(res.json, invalidBody('invalid field namespace: the document is for namespace "staging", not "copy"; remove it to import into "copy"'));
  }
  t.is((await importInto('copy', 'dryRun=true', { namespace: 'copy', flags: [] })).status, 200, 'its own namespace is fine');
  t.is((await importInto('copy', 'dryRun=true', { namespace: { name: 'No key' }, flags: [] })).status, 200, 'so is one without a key');
});

test('bad documents are 400s naming the path in the document', async (t) => {
  const cases: Array<[unknown, RegExp]> = [
    [
      { flags: [{ key: 'color', name: 'Color', variants: [{ key: 'blue' }], rules: [{ segment: 'beta', distributions: [{ variant: 'blu', rollout: 100 }] }] }], segments: [{ key: 'beta', name: 'Beta' }] },
      /flags\[0\]\.rules\[0\]\.distributions\[0\]\.variant/,
    ],
    [{ flags: [{ key: 'bad key', name: 'Bad' }] }, /flags\[0\]\.key/],
    [{ flags: [{ key: 'nameless' }] }, /flags\[0\]\.name: must not be empty/],
    [{ flags: [{ key: 'f', name: 'F', rules: [{ segment: 'unknown' }] }] }, /flags\[0\]\.rules\[0\]\.segment/],
    [{ version: '9.9' }, /version/],
    [{ segments: [{ key: 's', name: 'S', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'p', operator: 'nope', value: 'v' }] }] }, /segments\[0\]\.constraints\[0\]\.operator/],
    ['just text', /must be a mapping/],
  ];
  for (const [doc, path] of cases) {
    const res = await importInto('copy', 'dryRun=true', typeof doc === 'string' ? doc : stringify(doc));
    t.is(res.status, 400, res.text);
    t.regex(res.json.message, path);
    t.is(res.json.code, 3);
  }
});

test('a segment the document uses must be defined by it or stay in the namespace', async (t) => {
  const usesBeta = { flags: [{ key: 'beta-only', name: 'Beta only', rules: [{ segment: 'beta' }] }] };
  t.is((await importInto('shop', 'dryRun=true', usesBeta)).status, 200, 'beta is in shop');
  const dropped = await importInto('shop', 'drop=true&dryRun=true', usesBeta);
  t.is(dropped.status, 400, 'but not once everything is dropped');
  t.regex(dropped.json.message, /flags\[0\]\.rules\[0\]\.segment: no segment "beta" in namespace "shop"/);
});

test('a prerequisite may name a flag the namespace keeps, with the variants it has; the preview refuses what the import would', async (t) => {
  const requiring = (prerequisites: unknown[]) => ({ flags: [{ key: 'gated', name: 'Gated', type: 'BOOLEAN_FLAG_TYPE', prerequisites }] });
  t.is((await importInto('shop', 'dryRun=true', requiring([{ flag: 'checkout', variants: ['green'] }]))).status, 200, 'checkout is in shop');
  const purple = await importInto('shop', 'dryRun=true', requiring([{ flag: 'checkout', variants: ['purple'] }]));
  t.is(purple.status, 400, purple.text);
  t.regex(purple.json.message, /flags\[0\]\.prerequisites\[0\]\.variants: flag "checkout" has no variant "purple"$/);
  const dropped = await importInto('shop', 'drop=true&dryRun=true', requiring([{ flag: 'banner', enabled: true }]));
  t.is(dropped.status, 400, 'not once everything is dropped');
  t.regex(dropped.json.message, /flags\[0\]\.prerequisites\[0\]\.flag: no flag "banner" in namespace "shop"$/);
});

test('windows, ramps, prerequisites and schedules go in through the route and come out in the export', async (t) => {
  const doc = {
    flags: [
      { key: 'base', name: 'Base', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
      {
        key: 'launch',
        name: 'Launch',
        type: 'BOOLEAN_FLAG_TYPE',
        enabled: false,
        rollouts: [{ threshold: { percentage: 5, value: true, ramp: [{ at: '2099-01-01T00:00:00.000Z', percentage: 50 }] }, valid_until: '2099-06-01T00:00:00.000Z' }],
        prerequisites: [{ flag: 'base', enabled: true }],
        schedules: [{ at: '2099-01-01T00:00:00.000Z', enabled: true }],
      },
    ],
  };
  const res = await importInto('timed', '', doc);
  t.is(res.status, 200, res.text);
  t.deepEqual((await exported('timed')).flags, doc.flags);
  const schedules = await h.call('GET', '/api/v1/namespaces/timed/flags/launch/schedules');
  t.like(schedules.json.schedules, [{ at: '2099-01-01T00:00:00.000Z', enabled: true, status: 'pending' }]);
});

test('unreadable bodies and bad options are 400s', async (t) => {
  const yaml = await importInto('copy', 'dryRun=true', 'flags:\n  - key: a\n   name: b\n');
  t.is(yaml.status, 400);
  t.regex(yaml.json.message, /^invalid YAML body: .* at line \d+, column \d+$/);
  t.deepEqual((await importInto('copy', 'dryRun=true', '')).json, invalidBody('the body must hold a Flipt document'));
  t.deepEqual((await importInto('copy', 'dryRun=true', '# nothing but a comment\n')).json, invalidBody('the body must hold a Flipt document'));
  t.deepEqual(
    (await importInto('copy', 'dryRun=true', 'flags: []\n---\nnamespace: other\n')).json,
    invalidBody('the body must hold one document, not 2: import each namespace on its own'),
  );
  t.deepEqual((await importInto('copy', 'drop=maybe', '{}')).json, invalidBody('invalid field drop: must be a boolean'));
  t.deepEqual((await importInto('copy', 'dryRun=1&skipExisting=nah', '{}')).json, invalidBody('invalid field skipExisting: must be a boolean'));
  t.is((await h.call('GET', '/api/v1/namespaces/copy/import')).status, 501);
});

test('a body over the app\'s limit is a 413', async (t) => {
  const small = await startHarness({ bodyLimitBytes: 200 });
  t.teardown(() => small.close());
  const res = await small.call('POST', '/api/v1/namespaces/default/import?dryRun=true', { body: stringify(portable()), headers: { 'content-type': 'application/yaml' } });
  t.is(res.status, 413);
  t.deepEqual(res.json, { code: 3, message: 'request body too large: limit is 200 bytes', details: [] });
  const chunks = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(`# ${'x'.repeat(60)}\n`));
      controller.close();
    },
  });
  const chunked = await fetch(`${small.base}/api/v1/namespaces/default/import`, { method: 'POST', body: chunks, duplex: 'half' } as RequestInit);
  t.is(chunked.status, 413, 'also when the length is not announced');
  const fits = await small.call('POST', '/api/v1/namespaces/default/import?dryRun=true', { body: 'flags:\n- key: tiny\n  name: T\n', headers: { 'content-type': 'application/yaml' } });
  t.is(fits.status, 200, fits.text);
});

test('a body is decoded by its Content-Encoding as the API\'s other bodies are; an encoding not served is refused, and writes nothing', async (t) => {
  const doc = 'flags:\n- key: zipped\n  name: Zipped\n';
  const zipped = await h.call('POST', '/api/v1/namespaces/encoded/import?dryRun=true', { body: gzipSync(doc), headers: { 'content-type': 'application/yaml', 'content-encoding': 'gzip' } });
  t.is(zipped.status, 200, zipped.text);
  t.deepEqual(zipped.json.flags.created, ['zipped']);
  const unknown = await h.call('POST', '/api/v1/namespaces/encoded/import', { body: doc, headers: { 'content-type': 'application/yaml', 'content-encoding': 'compress' } });
  t.deepEqual(unknown.json, invalidBody('invalid request body: Unsupported Content-Encoding: compress'));
  const garbled = await h.call('POST', '/api/v1/namespaces/encoded/import', { body: doc, headers: { 'content-type': 'application/yaml', 'content-encoding': 'gzip' } });
  t.is(garbled.status, 400, garbled.text);
  t.regex(garbled.json.message, /^invalid request body: /);
  t.is((await h.call('GET', '/api/v1/namespaces/encoded')).status, 404, 'no namespace was created');
});

test('a compressed body is refused once it decodes past the limit', async (t) => {
  const small = await startHarness({ bodyLimitBytes: 200 });
  t.teardown(() => small.close());
  const bomb = gzipSync(`# ${'x'.repeat(10_000_000)}\n`);
  const res = await small.call('POST', '/api/v1/namespaces/default/import?dryRun=true', { body: bomb, headers: { 'content-type': 'application/yaml', 'content-encoding': 'gzip' } });
  t.is(res.status, 413);
});
