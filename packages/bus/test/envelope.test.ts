import test from 'ava';
import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeEnvelope, DeltaTooLargeError, encodeEnvelope, EnvelopeError, parseEnvelope } from '../src/index.js';
import { deltaOf, documentOf, snapshotOf } from './helpers/snapshots.js';

test('a small hydration round-trips inline, gzipped, its checksum carried as given', async (t) => {
  const snapshot = { ...snapshotOf(documentOf('team,alpha'), 7), checksum: 'not-a-sha-of-anything' };
  const encoded = await encodeEnvelope(snapshot);
  t.is(encoded.object, undefined);
  t.like(encoded.envelope, { v: 3, kind: 'hydration', namespace: 'team,alpha', revision: 7, checksum: 'not-a-sha-of-anything', encoding: 'gzip' });
  t.is(typeof (encoded.envelope.kind === 'hydration' && encoded.envelope.document), 'string');
  t.deepEqual(await decodeEnvelope(encoded.value), { kind: 'hydration', snapshot });
});

test('a delta round-trips inline with its base, upserts and removals; its payload is the gzipped { flags, removed }', async (t) => {
  const delta = deltaOf('team,alpha', 4, 9, 3, ['gone-1', 'gone-2']);
  const encoded = await encodeEnvelope(delta);
  t.is(encoded.object, undefined);
  t.like(encoded.envelope, { v: 3, kind: 'delta', namespace: 'team,alpha', revision: 9, baseRevision: 4, checksum: delta.checksum, encoding: 'gzip' });
  t.deepEqual(await decodeEnvelope(encoded.value), { kind: 'delta', delta });
  const envelope = parseEnvelope(encoded.value);
  const payload = JSON.parse(gunzipSync(Buffer.from(envelope.document as string, 'base64')).toString('utf8')) as object;
  t.deepEqual(payload, { flags: delta.flags, removed: delta.removed });
});

test('a hydration over maxInlineBytes moves to an object and decodes through the fetcher', async (t) => {
  const snapshot = snapshotOf(documentOf('big', 50, 64), 3);
  const encoded = await encodeEnvelope(snapshot, { maxInlineBytes: 1024 });
  t.truthy(encoded.object);
  const envelope = parseEnvelope(encoded.value);
  t.true(envelope.kind === 'hydration' && envelope.document === undefined);
  t.is(envelope.kind === 'hydration' ? envelope.objectRef : undefined, encoded.object?.name);
  t.true(encoded.value.length < 1024);
  const fetched: string[] = [];
  const decoded = await decodeEnvelope(encoded.value, async (name) => {
    fetched.push(name);
    return name === encoded.object?.name ? encoded.object.data : null;
  });
  t.deepEqual(decoded, { kind: 'hydration', snapshot });
  t.deepEqual(fetched, [encoded.object?.name]);
  await t.throwsAsync(decodeEnvelope(encoded.value), { instanceOf: EnvelopeError }, 'no object store to read from');
  await t.throwsAsync(decodeEnvelope(encoded.value, async () => null), { instanceOf: EnvelopeError, message: /missing/ });
});

test('a delta over maxInlineBytes is refused, never moved to an object', async (t) => {
  const delta = deltaOf('big', 1, 2, 40);
  const error = await t.throwsAsync(encodeEnvelope(delta, { maxInlineBytes: 1024 }), { instanceOf: DeltaTooLargeError });
  t.true(error instanceof EnvelopeError);
  t.true((error?.bytes ?? 0) > 1024);
  t.is(error?.maxBytes, 1024);
  await t.throwsAsync(encodeEnvelope({ ...delta, baseRevision: 3 }), { instanceOf: EnvelopeError, message: /base/ });
});

test('a hydration of format 3 is a line per flag after the document\'s other fields; of format 2, one JSON document; both read back alike', async (t) => {
  const snapshot = snapshotOf(documentOf('lines', 3), 2);
  const current = parseEnvelope((await encodeEnvelope(snapshot)).value);
  const lines = gunzipSync(Buffer.from(current.document as string, 'base64')).toString('utf8').split('\n');
  t.deepEqual(lines, [JSON.stringify({ namespace: snapshot.document.namespace }), ...snapshot.document.flags.map((flag) => JSON.stringify(flag))]);
  const previous = await encodeEnvelope(snapshot, { version: 2 });
  t.like(previous.envelope, { v: 2, kind: 'hydration' });
  t.deepEqual(JSON.parse(gunzipSync(Buffer.from(parseEnvelope(previous.value).document as string, 'base64')).toString('utf8')), snapshot.document);
  t.deepEqual(await decodeEnvelope(previous.value), { kind: 'hydration', snapshot });
  const empty = snapshotOf({ namespace: { key: 'empty' }, flags: [] }, 1);
  t.deepEqual(await decodeEnvelope((await encodeEnvelope(empty)).value), { kind: 'hydration', snapshot: empty }, 'no flags: the first line alone');
});

test('malformed envelopes are rejected', async (t) => {
  const hydration = (await encodeEnvelope(snapshotOf(documentOf('default'), 1))).envelope;
  const delta = (await encodeEnvelope(deltaOf('default', 1, 2))).envelope;
  const bad: unknown[] = [
    'not json',
    null,
    [],
    { ...hydration, v: 1 },
    { ...hydration, kind: undefined },
    { ...hydration, kind: 'patch' },
    { ...hydration, revision: '1' },
    { ...hydration, revision: -1 },
    { ...hydration, checksum: undefined },
    { ...hydration, encoding: 'br' },
    { ...hydration, document: undefined },
    { ...hydration, objectRef: 'also-a-ref' },
    { ...delta, baseRevision: undefined },
    { ...delta, baseRevision: 3 },
    { ...delta, document: undefined, objectRef: 'deltas-never-use-objects' },
  ];
  for (const value of bad) {
    const bytes = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
    t.throws(() => parseEnvelope(bytes), { instanceOf: EnvelopeError }, JSON.stringify(value));
    await t.throwsAsync(decodeEnvelope(bytes), { instanceOf: EnvelopeError });
  }
});

test('a payload that is not gzip, not JSON, or not of its kind is refused', async (t) => {
  const hydration = (await encodeEnvelope(snapshotOf(documentOf('default'), 1))).envelope;
  const delta = (await encodeEnvelope(deltaOf('default', 1, 2))).envelope;
  const cases: Array<[object, RegExp]> = [
    [{ ...hydration, document: 'bm90IGd6aXA=' }, /gzip/],
    [{ ...delta, document: 'bm90IGd6aXA=' }, /gzip/],
    [{ ...delta, document: gzipSync('{').toString('base64') }, /JSON/],
    [{ ...delta, document: gzipSync(JSON.stringify({ flags: [] })).toString('base64') }, /not a delta/],
    [{ ...delta, document: gzipSync(JSON.stringify({ flags: [], removed: [1] })).toString('base64') }, /not a delta/],
    [{ ...hydration, v: 2, document: gzipSync(JSON.stringify({ namespace: { key: 'default' } })).toString('base64') }, /not a snapshot document/],
    [{ ...hydration, v: 2, document: gzipSync('{"namespace":{"key":"default"}}\n{"key":"a"}').toString('base64') }, /JSON/],
    [{ ...hydration, document: gzipSync('{"namespace":').toString('base64') }, /first line is not JSON/],
    [{ ...hydration, document: gzipSync('[]').toString('base64') }, /first line is not a JSON object/],
    [{ ...hydration, document: gzipSync('{"namespace":{"key":"default"},"flags":[]}').toString('base64') }, /first line holds flags/],
    [{ ...hydration, document: gzipSync('{"namespace":{"key":"default"}}\n{"key":"a"}\n{"key":').toString('base64') }, /line 3 is not JSON/],
    [{ ...hydration, document: gzipSync('{"namespace":{"key":"default"}}\n\n{"key":"a"}').toString('base64') }, /line 2 is not JSON/],
    [{ ...hydration, document: gzipSync('{"namespace":{"key":"default"}}\n"a"').toString('base64') }, /line 2 is not a JSON object/],
  ];
  for (const [value, message] of cases) {
    await t.throwsAsync(decodeEnvelope(Buffer.from(JSON.stringify(value))), { instanceOf: EnvelopeError, message });
  }
});
