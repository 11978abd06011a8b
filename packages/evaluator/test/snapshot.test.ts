/** GET /internal/v1/evaluation/snapshot/namespace/{key}: version gating, ETag and 304. */
import test from 'ava';
import { defaultDocument, hold, readySource } from '@ensign/testkit/snapshot-fixtures';
import { InProcessSnapshotSource } from '../src/in-process-snapshot-source.js';
import { startServer } from './helpers/server.js';

const PATH = '/internal/v1/evaluation/snapshot/namespace/default';
const V = (version: string) => ({ 'X-Flipt-Accept-Server-Version': version });

const constraintTypes = (doc: any): string[] =>
  doc.flags.flatMap((f: any) => f.rules.flatMap((r: any) => r.segments.flatMap((s: any) => s.constraints.map((c: any) => c.type))));

test('a current client gets the held document as it is, with an ETag', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.get(PATH, V('1.61.1'));
  t.is(reply.status, 200, reply.text);
  t.is(reply.headers.get('content-type'), 'application/json');
  t.deepEqual(reply.body, defaultDocument());
  t.regex(reply.headers.get('etag') ?? '', /^[0-9a-f]{40}$/);
  t.like(reply.body.flags.find((f: any) => f.key === 'color'), { defaultVariant: { key: 'red' } });
  t.true(constraintTypes(reply.body).includes('ENTITY_ID_CONSTRAINT_COMPARISON_TYPE'));
});

test('a client older than 1.47.0 does not see default variants', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const version of ['1.46.9', 'v1.40.0', '1.47.0-rc.1', '1.38']) {
    const reply = await api.get(PATH, V(version));
    t.true(reply.body.flags.every((f: any) => !('defaultVariant' in f)), version);
    t.true(constraintTypes(reply.body).includes('ENTITY_ID_CONSTRAINT_COMPARISON_TYPE'), version);
  }
  t.true((await api.get(PATH, V('1.47.0'))).body.flags.some((f: any) => 'defaultVariant' in f));
});

test('a client older than 1.38.0, or one that sends no version, sees entity-id constraints as UNKNOWN', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const headers of [{}, V('1.37.9'), V('not a version'), V('0.9')]) {
    const reply = await api.get(PATH, headers);
    t.is(reply.status, 200);
    const types = constraintTypes(reply.body);
    t.false(types.includes('ENTITY_ID_CONSTRAINT_COMPARISON_TYPE'), JSON.stringify(headers));
    t.true(types.includes('UNKNOWN_CONSTRAINT_COMPARISON_TYPE'));
    t.true(reply.body.flags.every((f: any) => !('defaultVariant' in f)));
  }
  // The held document itself is untouched by gating.
  const current = await api.get(PATH, V('1.61.1'));
  t.deepEqual(current.body, defaultDocument());
});

test('If-None-Match equal to the ETag is a 304 that repeats it; any other value is a 200', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const first = await api.get(PATH, V('1.61.1'));
  const etag = first.headers.get('etag') as string;
  const again = await api.get(PATH, { ...V('1.61.1'), 'If-None-Match': etag });
  t.is(again.status, 304);
  t.is(again.text, '');
  t.is(again.headers.get('etag'), etag);
  t.is((await api.get(PATH, { ...V('1.61.1'), 'If-None-Match': `"${etag}"` })).status, 200);
  t.is((await api.get(PATH, { ...V('1.61.1'), 'If-None-Match': 'other' })).status, 200);
});

test('same data gives the same ETag; a change gives a new one; each gate has its own', async (t) => {
  const source = new InProcessSnapshotSource();
  hold(source, defaultDocument(), 1);
  source.markReady();
  const api = await startServer(t, { source });
  const etagOf = async (headers: Record<string, string> = V('1.61.1')) => (await api.get(PATH, headers)).headers.get('etag');

  const current = await etagOf();
  t.is(await etagOf(), current);
  const gates = [await etagOf({}), await etagOf(V('1.40.0')), current];
  t.is(new Set(gates).size, 3);

  // A new revision of identical content keeps the tag; changed content changes every gate's tag.
  hold(source, defaultDocument(), 2);
  t.is(await etagOf(), current);
  const changed = defaultDocument();
  changed.flags[0]!.description = 'changed';
  hold(source, changed, 3);
  const after = await etagOf();
  t.not(after, current);
  t.not(await etagOf({}), gates[0]);
  t.is((await api.get(PATH, { ...V('1.61.1'), 'If-None-Match': current as string })).status, 200);
  t.is((await api.get(PATH, { ...V('1.61.1'), 'If-None-Match': after as string })).status, 304);
});

test('an unknown namespace is an empty document without an ETag', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.get('/internal/v1/evaluation/snapshot/namespace/ghost');
  t.is(reply.status, 200);
  t.deepEqual(reply.body, { namespace: { key: 'ghost' }, flags: [] });
  t.is(reply.headers.get('etag'), null);
});

test('the other namespace, a trailing slash and a reference query are served the same way', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.get('/internal/v1/evaluation/snapshot/namespace/other/?reference=main', V('1.61.1'));
  t.is(reply.status, 200);
  t.is(reply.body.namespace.key, 'other');
  t.is(reply.body.flags[0].key, 'color');
});

test('POST on the snapshot path is a 501', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post(PATH, {});
  t.is(reply.status, 501);
  t.deepEqual(reply.body, { code: 12, message: 'Method Not Allowed', details: [] });
});
