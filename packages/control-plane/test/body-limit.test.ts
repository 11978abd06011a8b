import test from 'ava';
import { type Harness, startHarness } from './harness.js';

let h: Harness;
test.before(async () => {
  h = await startHarness({ bodyLimitBytes: 64 });
});
test.after.always(() => h?.close());

test('bodyLimitBytes sets the limit and the message', async (t) => {
  const res = await h.call('POST', '/api/v1/namespaces', { json: { key: 'k', name: 'n'.repeat(100) } });
  t.is(res.status, 413);
  t.deepEqual(res.json, { code: 3, message: 'request body too large: limit is 64 bytes', details: [] });
  const small = await h.call('POST', '/api/v1/namespaces', { json: { key: 'k', name: 'n' } });
  t.is(small.status, 200);
});

test('a body over the limit is the client\'s failure: answered, not logged as the server\'s', async (t) => {
  const res = await h.call('POST', '/api/v1/namespaces', { json: { key: 'logged', name: 'n'.repeat(100) } });
  t.is(res.status, 413);
  const answered = h.logs.find((l) => l.msg === 'request' && l.status === 413);
  t.truthy(answered, 'the request itself is logged');
  t.false(h.logs.some((l) => l.msg === 'request failed'), 'but not as a failure');
});

test('a chunked body over the limit is a 413 too', async (t) => {
  const chunks = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode(`{"k${i}":"${'x'.repeat(40)}"}`));
      controller.close();
    },
  });
  const res = await fetch(`${h.base}/api/v1/namespaces`, { method: 'POST', body: chunks, duplex: 'half' } as RequestInit);
  t.is(res.status, 413);
  t.is(((await res.json()) as { message: string }).message, 'request body too large: limit is 64 bytes');
});
