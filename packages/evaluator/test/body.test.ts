/** Request bodies: JSON whatever the Content-Type, both spellings, nulls, and every kind of bad input. */
import { request } from 'node:http';
import test from 'ava';
import { readySource } from '@ensign/testkit/snapshot-fixtures';
import { assertError, startServer } from './helpers/server.js';

test('a body is JSON whatever its Content-Type', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const body = JSON.stringify({ flagKey: 'color', entityId: 'u1', context: { plan: 'pro' } });
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream']) {
    const reply = await api.post('/evaluate/v1/variant', body, { 'Content-Type': type });
    t.is(reply.status, 200, `${type}: ${reply.text}`);
    t.is(reply.body.variantKey, 'blue', type);
  }
});

test('snake_case field names are read like camelCase ones', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/evaluate/v1/variant', { request_id: 'snake', namespace_key: 'other', flag_key: 'color', entity_id: 'u1' });
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { requestId: 'snake', flagKey: 'color', variantKey: 'green' });
  const batch = await api.post('/evaluate/v1/batch', { request_id: 'b', requests: [{ flag_key: 'test-flag', entity_id: 'test-entity', request_id: 'i' }] });
  t.is(batch.body.requestId, 'b');
  t.like(batch.body.responses[0].booleanResponse, { requestId: 'i', enabled: true });
});

test('null is "not sent", inside context too; unknown fields are ignored', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/evaluate/v1/variant', {
    requestId: null,
    namespaceKey: null,
    flagKey: 'color',
    entityId: 'u1',
    context: { plan: 'pro', gone: null },
    reference: null,
    whatever: { nested: [1, 2] },
  });
  t.is(reply.status, 200, reply.text);
  t.like(reply.body, { variantKey: 'blue', match: true });
  const nullContext = await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: null });
  t.like(nullContext.body, { reason: 'DEFAULT_EVALUATION_REASON' });
});

test('an empty body is {}; a null body too', async (t) => {
  const api = await startServer(t, { source: readySource() });
  assertError(t, await api.post('/evaluate/v1/variant'), 404, 5, 'flag "default/" not found');
  assertError(t, await api.post('/evaluate/v1/variant', 'null'), 404, 5, 'flag "default/" not found');
  t.is((await api.post('/evaluate/v1/batch', ' ')).status, 200);
});

test('malformed JSON and non-object bodies are 400s', async (t) => {
  const api = await startServer(t, { source: readySource() });
  assertError(t, await api.post('/evaluate/v1/variant', '{"flagKey": '), 400, 3, /^invalid JSON body: /);
  assertError(t, await api.post('/evaluate/v1/variant', 'flagKey=color'), 400, 3, /^invalid JSON body: /);
  assertError(t, await api.post('/evaluate/v1/variant', '[1,2]'), 400, 3, 'invalid JSON body: must be a JSON object');
  assertError(t, await api.post('/evaluate/v1/boolean', '"text"'), 400, 3, 'invalid JSON body: must be a JSON object');
});

test('a context value that is not a string is a 400 naming it', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const value of [1, true, { a: 'b' }, ['x']]) {
    assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1', context: { plan: 'pro', age: value } }), 400, 3, 'invalid field context.age: must be a string');
  }
  assertError(t, await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', context: 'plan=pro' }), 400, 3, 'invalid field context: must be an object of strings');
  assertError(t, await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', context: ['pro'] }), 400, 3, 'invalid field context: must be an object of strings');
});

test('fields of the wrong type are 400s naming the field', async (t) => {
  const api = await startServer(t, { source: readySource() });
  for (const field of ['flagKey', 'entityId', 'namespaceKey', 'requestId', 'reference']) {
    assertError(t, await api.post('/evaluate/v1/variant', { flagKey: 'color', [field]: 12 }), 400, 3, `invalid field ${field}: must be a string`);
  }
  assertError(t, await api.post('/evaluate/v1/variant', { flag_key: false }), 400, 3, 'invalid field flagKey: must be a string');
});

test('a context key named like an Object property is just a key', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const reply = await api.post('/evaluate/v1/variant', '{"flagKey":"color","entityId":"u1","context":{"__proto__":"x","constructor":"y","plan":"pro"}}');
  t.is(reply.status, 200, reply.text);
  t.is(reply.body.variantKey, 'blue');
});

test('a 5 MiB body is refused with 413 without reading it, and the server stays healthy', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const huge = JSON.stringify({ flagKey: 'color', entityId: 'u1', context: { blob: 'x'.repeat(5 * 1024 * 1024) } });
  const reply = await api.post('/evaluate/v1/variant', huge);
  assertError(t, reply, 413, 3, 'request body too large: limit is 1048576 bytes');
  t.is(reply.headers.get('connection'), 'close');
  t.is((await api.post('/evaluate/v1/variant', { flagKey: 'color', entityId: 'u1' })).status, 200);
});

test('a chunked body (no Content-Length) over the limit is refused with 413 too', async (t) => {
  const api = await startServer(t, { source: readySource(), bodyLimitBytes: 1024 });
  const status = await new Promise<number | string>((resolve) => {
    const req = request(`${api.url}/evaluate/v1/variant`, { method: 'POST', headers: { 'Transfer-Encoding': 'chunked' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err) => resolve(`error ${(err as NodeJS.ErrnoException).code}`));
    let sent = 0;
    const pump = (): void => {
      while (sent < 64) {
        sent++;
        if (!req.write('x'.repeat(1024))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
  t.is(status, 413);
  t.is((await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', entityId: 'u1' })).status, 200);
});

test('a body just under the limit is read', async (t) => {
  const api = await startServer(t, { source: readySource(), bodyLimitBytes: 2048 });
  const body = JSON.stringify({ flagKey: 'color', entityId: 'u1', pad: 'x'.repeat(1900) });
  t.true(Buffer.byteLength(body) <= 2048);
  t.is((await api.post('/evaluate/v1/variant', body)).status, 200);
});

test('a batch has no cap of its own: 5,000 small requests are answered; one over the body limit is a 413, and the server stays healthy', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const requests = Array.from({ length: 5_000 }, (_, i) => ({ flagKey: 'test-flag', entityId: `e${i}` }));
  const answered = await api.post('/evaluate/v1/batch', { requests });
  t.is(answered.status, 200, answered.text.slice(0, 200));
  t.is(answered.body.responses.length, 5_000);
  t.like(answered.body.responses[4_999].booleanResponse, { flagKey: 'test-flag', enabled: true });

  const tooLarge = JSON.stringify({ requests: Array.from({ length: 30_000 }, (_, i) => ({ flagKey: 'test-flag', entityId: `e${i}` })) });
  t.true(Buffer.byteLength(tooLarge) > 1_048_576);
  assertError(t, await api.post('/evaluate/v1/batch', tooLarge), 413, 3, 'request body too large: limit is 1048576 bytes');
  t.is((await api.post('/evaluate/v1/boolean', { flagKey: 'test-flag', entityId: 'u1' })).status, 200);
});

test('many concurrent requests each get their own answer', async (t) => {
  const api = await startServer(t, { source: readySource() });
  const replies = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? api.post('/evaluate/v1/variant', { requestId: `r${i}`, flagKey: 'foo', entityId: String((i % 4) / 2 + 1) })
        : api.post('/evaluate/v1/boolean', { requestId: `r${i}`, flagKey: 'test-flag', entityId: 'test-entity' }),
    ),
  );
  replies.forEach((reply, i) => {
    t.is(reply.status, 200);
    t.is(reply.body.requestId, `r${i}`);
    if (i % 2 === 0) t.is(reply.body.variantKey, (i % 4) / 2 + 1 === 1 ? 'boz' : 'booz');
    else t.true(reply.body.enabled);
  });
});
