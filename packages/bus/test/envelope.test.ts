import test from 'ava';
import { gzipSync } from 'node:zlib';
import { decodeEnvelope, encodeEnvelope, EnvelopeError, parseEnvelope } from '../src/index.js';
import { documentOf, snapshotOf } from './helpers/snapshots.js';

test('a small snapshot round-trips inline, gzipped', async (t) => {
  const snapshot = snapshotOf(documentOf('team,alpha'), 7);
  const encoded = await encodeEnvelope(snapshot);
  t.is(encoded.object, undefined);
  t.like(encoded.envelope, { v: 1, namespace: 'team,alpha', revision: 7, checksum: snapshot.checksum, encoding: 'gzip' });
  t.is(typeof encoded.envelope.document, 'string');
  t.deepEqual(await decodeEnvelope(encoded.value), snapshot);
});

test('a document over maxInlineBytes moves to an object and decodes through the fetcher', async (t) => {
  const snapshot = snapshotOf(documentOf('big', 50, 64), 3);
  const encoded = await encodeEnvelope(snapshot, { maxInlineBytes: 1024 });
  t.truthy(encoded.object);
  const envelope = parseEnvelope(encoded.value);
  t.is(envelope.document, undefined);
  t.is(envelope.objectRef, encoded.object?.name);
  t.true(encoded.value.length < 1024);
  const fetched: string[] = [];
  const decoded = await decodeEnvelope(encoded.value, async (name) => {
    fetched.push(name);
    return name === encoded.object?.name ? encoded.object.data : null;
  });
  t.deepEqual(decoded, snapshot);
  t.deepEqual(fetched, [envelope.objectRef]);
  await t.throwsAsync(decodeEnvelope(encoded.value), { instanceOf: EnvelopeError }, 'no object store to read from');
  await t.throwsAsync(decodeEnvelope(encoded.value, async () => null), { instanceOf: EnvelopeError, message: /missing/ });
});

test('a document that does not match the checksum is rejected', async (t) => {
  const snapshot = snapshotOf(documentOf('default'), 2);
  const encoded = await encodeEnvelope(snapshot);
  const tampered = { ...encoded.envelope, document: gzipSync(JSON.stringify({ ...snapshot.document, flags: [] })).toString('base64') };
  await t.throwsAsync(decodeEnvelope(Buffer.from(JSON.stringify(tampered))), { instanceOf: EnvelopeError, message: /checksum/ });
  const wrongSum = { ...encoded.envelope, checksum: '0'.repeat(64) };
  await t.throwsAsync(decodeEnvelope(Buffer.from(JSON.stringify(wrongSum))), { instanceOf: EnvelopeError, message: /checksum/ });
});

test('encoding refuses a snapshot whose checksum is not that of its document', async (t) => {
  const snapshot = { ...snapshotOf(documentOf('default'), 2), checksum: 'f'.repeat(64) };
  await t.throwsAsync(encodeEnvelope(snapshot), { instanceOf: EnvelopeError, message: /checksum/ });
});

test('malformed envelopes are rejected', async (t) => {
  const good = (await encodeEnvelope(snapshotOf(documentOf('default'), 1))).envelope;
  const bad: unknown[] = [
    'not json',
    { ...good, v: 2 },
    { ...good, revision: '1' },
    { ...good, encoding: 'br' },
    { ...good, document: undefined },
    { ...good, objectRef: 'also-a-ref' },
  ];
  for (const value of bad) {
    const bytes = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
    await t.throwsAsync(decodeEnvelope(bytes), { instanceOf: EnvelopeError });
  }
  await t.throwsAsync(decodeEnvelope(Buffer.from(JSON.stringify({ ...good, document: 'bm90IGd6aXA=' }))), {
    instanceOf: EnvelopeError,
    message: /gzip/,
  });
});
