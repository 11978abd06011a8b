import { internal, unauthenticated, unavailable } from '@ensign/core';
import test from 'ava';
import { type Harness, startHarness } from './harness.js';

let failing: Harness;
let hanging: Harness;

test.before(async () => {
  failing = await startHarness({
    wrapStore: (store) => ({
      ...store,
      ping: () => Promise.reject(new Error('database is down')),
      namespaces: {
        ...store.namespaces,
        list: () => Promise.reject(new Error('connection reset: secret detail')),
        get: () => Promise.reject(unauthenticated()),
        create: () => Promise.reject(internal('storage exploded')),
        update: () => Promise.reject(unavailable('database unavailable')),
        delete: (key, force) => store.namespaces.delete(key, force),
      },
    }),
  });
  hanging = await startHarness({
    wrapStore: (store) => ({ ...store, ping: () => new Promise<void>(() => {}) }),
  });
});
test.after.always(async () => {
  await failing?.close();
  await hanging?.close();
});

test('health answers 503 NOT_SERVING when the ping rejects', async (t) => {
  const res = await failing.call('GET', '/health');
  t.is(res.status, 503);
  t.deepEqual(res.json, { status: 'NOT_SERVING' });
});

test('health answers 503 NOT_SERVING when the ping does not answer in time', async (t) => {
  const res = await hanging.call('GET', '/health');
  t.is(res.status, 503);
  t.deepEqual(res.json, { status: 'NOT_SERVING' });
});

test('a non-AppError is a 500 that hides its message and is logged with its cause', async (t) => {
  const res = await failing.call('GET', '/api/v1/namespaces');
  t.is(res.status, 500);
  t.deepEqual(res.json, { code: 13, message: 'internal error', details: [] });
  t.false(res.text.includes('secret'));
  const logged = failing.logs.find((l) => l.level === 50 && (l.err as { message?: string })?.message?.includes('secret'));
  t.truthy(logged);
  const requestLine = failing.logs.find((l) => l.msg === 'request' && l.status === 500);
  t.is(requestLine?.reqId, logged?.reqId);
});

test('an internal AppError keeps its message and status 500, and is logged as a failure', async (t) => {
  const res = await failing.call('POST', '/api/v1/namespaces', { json: { key: 'k', name: 'n' } });
  t.is(res.status, 500);
  t.deepEqual(res.json, { code: 13, message: 'storage exploded', details: [] });
  t.truthy(failing.logs.find((l) => l.msg === 'request failed' && (l.err as { message?: string })?.message === 'storage exploded'));
});

test('401 sets WWW-Authenticate to the message', async (t) => {
  const res = await failing.call('GET', '/api/v1/namespaces/default');
  t.is(res.status, 401);
  t.deepEqual(res.json, { code: 16, message: 'request was not authenticated', details: [] });
  t.is(res.headers.get('www-authenticate'), 'request was not authenticated');
  t.false(
    failing.logs.some((l) => l.msg === 'request failed' && (l.err as { message?: string })?.message === 'request was not authenticated'),
    'a refusal is not logged as a failure',
  );
});

test('a 503 says when to try again (Retry-After), and other errors do not', async (t) => {
  const res = await failing.call('PUT', '/api/v1/namespaces/default', { json: { key: 'default', name: 'Default' } });
  t.is(res.status, 503);
  t.deepEqual(res.json, { code: 14, message: 'database unavailable', details: [] });
  t.is(res.headers.get('retry-after'), '1');
  t.is((await failing.call('POST', '/api/v1/namespaces', { json: { key: 'k', name: 'n' } })).headers.get('retry-after'), null);
});
