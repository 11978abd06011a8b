import test from 'ava';
import { ApiError, onUnauthenticated, request } from '../src/api/client.js';
import { PERMISSION_DENIED, userMessage } from '../src/lib/user-messages.js';

/** Answers every request with `status` and `body`, as the service would. */
function answerWith(status: number, body: unknown): void {
  globalThis.fetch = async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

test.serial('a 403 is thrown with what to do, and never ends the session', async (t) => {
  let ended = 0;
  const stop = onUnauthenticated(() => ended++);
  t.teardown(stop);
  answerWith(403, { code: 7, message: 'permission denied', details: [] });
  const error = await t.throwsAsync(request('PUT', '/api/v1/namespaces/default/flags/beta', { name: 'beta' }), { instanceOf: ApiError });
  t.is(error?.status, 403);
  t.is(error?.code, 7);
  t.is(error?.message, PERMISSION_DENIED);
  t.is(ended, 0, 'the session stays');
});

test.serial('a 401 still ends it', async (t) => {
  let ended = 0;
  const stop = onUnauthenticated(() => ended++);
  t.teardown(stop);
  answerWith(401, { code: 16, message: 'request was not authenticated', details: [] });
  await t.throwsAsync(request('GET', '/api/v1/namespaces'), { instanceOf: ApiError });
  t.is(ended, 1);
});

test('the refusal reads as a sentence that says what to do', (t) => {
  t.deepEqual(userMessage('permission denied'), [PERMISSION_DENIED]);
  t.regex(PERMISSION_DENIED, /^You don't have permission to do this\. Ask an administrator/);
  t.deepEqual(userMessage('a session can only be opened from the UI of this service'), ['A session can only be opened from the UI of this service.'], 'other refusals keep their own words');
});
