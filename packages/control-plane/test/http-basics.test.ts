import test from 'ava';
import { type Harness, invalidBody, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness();
});
test.after.always(() => h?.close());

test('health answers SERVING when the store pings', async (t) => {
  const res = await h.call('GET', '/health');
  t.is(res.status, 200);
  t.deepEqual(res.json, { status: 'SERVING' });
  t.is(res.headers.get('content-type'), 'application/json');
});

test('unknown path under /api/v1 is a JSON 404', async (t) => {
  for (const path of ['/api/v1/nope', '/api/v1', '/api/v1/flags/f/nope/deeper']) {
    const res = await h.call('GET', path);
    t.is(res.status, 404, path);
    t.deepEqual(res.json, { code: 5, message: 'Not Found', details: [] }, path);
    t.is(res.headers.get('content-type'), 'application/json');
  }
});

test('a known path with the wrong method is a 501 Method Not Allowed', async (t) => {
  for (const [method, path] of [
    ['DELETE', '/api/v1/namespaces'],
    ['POST', '/api/v1/namespaces/default'],
    ['PATCH', '/api/v1/flags'],
    ['OPTIONS', '/api/v1/namespaces'],
    ['POST', '/api/v1/namespaces/default/flags/f/rules/order'],
    ['POST', '/health'],
  ] as const) {
    const res = await h.call(method, path);
    t.is(res.status, 501, `${method} ${path}`);
    t.deepEqual(res.json, { code: 12, message: 'Method Not Allowed', details: [] }, `${method} ${path}`);
  }
});

test('trailing slashes are stripped before routing', async (t) => {
  const res = await h.call('GET', '/api/v1/namespaces/');
  t.is(res.status, 200);
  t.is(res.json.namespaces[0].key, 'default');
  const one = await h.call('GET', '/api/v1/namespaces/default//');
  t.is(one.status, 200);
  t.is(one.json.key, 'default');
  t.is((await h.call('GET', '/health/')).status, 200);
});

test('?pretty and Accept: application/json+pretty indent the output', async (t) => {
  const plain = await h.call('GET', '/api/v1/namespaces/default');
  t.false(plain.text.includes('\n'));
  const pretty = await h.call('GET', '/api/v1/namespaces/default?pretty');
  t.true(pretty.text.startsWith('{\n  "key": "default"'));
  t.deepEqual(pretty.json, plain.json);
  const viaAccept = await h.call('GET', '/api/v1/namespaces/default', {
    headers: { accept: 'application/json+pretty' },
  });
  t.true(viaAccept.text.includes('\n  "protected": true'));
  const prettyError = await h.call('GET', '/api/v1/namespaces/missing?pretty=1');
  t.is(prettyError.status, 404);
  t.true(prettyError.text.includes('\n  "code": 5'));
});

test('malformed JSON is a 400 naming the parser error', async (t) => {
  const res = await h.call('POST', '/api/v1/namespaces', {
    body: '{"key": "x",',
    headers: { 'content-type': 'application/json' },
  });
  t.is(res.status, 400);
  t.is(res.json.code, 3);
  t.true((res.json.message as string).startsWith('invalid JSON body: '), res.json.message);
  t.deepEqual(res.json.details, []);
});

test('a body that is not a JSON object is a 400', async (t) => {
  for (const body of ['[1,2]', '"key"', '42', 'true']) {
    const res = await h.call('POST', '/api/v1/namespaces', { body, headers: { 'content-type': 'application/json' } });
    t.is(res.status, 400, body);
    t.deepEqual(res.json, invalidBody('invalid JSON body: must be a JSON object'), body);
  }
});

test('an empty or null body is decoded as {} and then validated', async (t) => {
  const empty = await h.call('POST', '/api/v1/namespaces');
  t.is(empty.status, 400);
  t.deepEqual(empty.json, invalidBody('invalid field key: must not be empty'));
  const nullBody = await h.call('POST', '/api/v1/flags', { body: 'null', headers: { 'content-type': 'application/json' } });
  t.deepEqual(nullBody.json, invalidBody('invalid field key: must not be empty'));
});

test('bodies are JSON whatever the Content-Type', async (t) => {
  const asText = await h.call('POST', '/api/v1/namespaces', { body: '{"key":"as-text","name":"Text"}' });
  t.is(asText.status, 200, asText.text);
  t.is(asText.json.key, 'as-text');
  const asForm = await h.call('POST', '/api/v1/namespaces', {
    body: '{"key":"as-form","name":"Form"}',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.is(asForm.status, 200, asForm.text);
  t.is(asForm.json.name, 'Form');
  const noType = await h.call('POST', '/api/v1/namespaces', {
    body: new TextEncoder().encode('{"key":"no-type","name":"None"}'),
  });
  t.is(noType.status, 200, noType.text);
  const badForm = await h.call('POST', '/api/v1/namespaces', {
    body: 'key=x&name=y',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.is(badForm.status, 400);
  t.true((badForm.json.message as string).startsWith('invalid JSON body: '));
});

test('a body that cannot be decoded is a 400, not a 500', async (t) => {
  const res = await h.call('POST', '/api/v1/namespaces', {
    body: '{"key":"k","name":"n"}',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  t.is(res.status, 400);
  t.is(res.json.code, 3);
  t.true((res.json.message as string).startsWith('invalid request body: '), res.json.message);
});

test('a body over the limit is a 413', async (t) => {
  const big = JSON.stringify({ key: 'big', name: 'x'.repeat(1024 * 1024) });
  const res = await h.call('POST', '/api/v1/namespaces', { body: big, headers: { 'content-type': 'application/json' } });
  t.is(res.status, 413);
  t.deepEqual(res.json, { code: 3, message: 'request body too large: limit is 1048576 bytes', details: [] });
  t.is((await h.call('GET', '/api/v1/namespaces/big')).status, 404);
});

test('a body just under the limit is accepted', async (t) => {
  const name = 'n'.repeat(1024 * 1024 - 64);
  const res = await h.call('POST', '/api/v1/namespaces', { json: { key: 'almost-big', name } });
  t.is(res.status, 200);
  t.is(res.json.name.length, name.length);
});

test('wrong JSON types and unknown enum names are 400s naming the field', async (t) => {
  const cases: [string, string, unknown, string][] = [
    ['POST', '/api/v1/flags', { key: 'k', name: 'n', enabled: 'yes' }, 'invalid field enabled: must be a boolean'],
    ['POST', '/api/v1/flags', { key: 'k', name: 'n', type: 'ON_OFF' }, 'invalid field type: unknown value "ON_OFF"'],
    ['POST', '/api/v1/flags', { key: 5, name: 'n' }, 'invalid field key: must be a string'],
    ['POST', '/api/v1/flags', { key: 'k', name: 'n', metadata: 'x' }, 'invalid field metadata: must be a JSON object'],
    ['POST', '/api/v1/segments', { key: 'k', name: 'n', match_type: 'SOME' }, 'invalid field matchType: unknown value "SOME"'],
    ['POST', '/api/v1/flags/f/rules', { segmentKeys: 'a', rank: 1 }, 'invalid field segmentKeys: must be an array of strings'],
    ['POST', '/api/v1/flags/f/rules', { segmentKey: 'a', rank: 'first' }, 'invalid field rank: must be an integer'],
    ['POST', '/api/v1/flags/f/variants', { key: 'v', attachment: { a: 1 } }, 'invalid field attachment: must be a string'],
  ];
  for (const [method, path, json, message] of cases) {
    const res = await h.call(method, path, { json });
    t.is(res.status, 400, message);
    t.deepEqual(res.json, invalidBody(message));
  }
});

test('every request is logged once at info with method, path, status and request id', async (t) => {
  await h.call('GET', '/api/v1/namespaces/default?probe=log');
  const line = h.logs.find((l) => l.msg === 'request' && l.path === '/api/v1/namespaces/default');
  t.truthy(line);
  t.is(line?.level, 30);
  t.is(line?.method, 'GET');
  t.is(line?.status, 200);
  t.is(typeof line?.durationMs, 'number');
  t.regex(String(line?.reqId), /^[0-9a-f-]{36}$/);
});
