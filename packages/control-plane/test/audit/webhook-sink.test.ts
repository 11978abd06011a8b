/** WebhookSink against a real node:http receiver: body, signature, templates, failures. */
import { createHmac } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import test from 'ava';
import { toAuditEvent, WebhookSink } from '../../src/audit/index.js';
import { flagCreated, startReceiver } from './audit-helpers.js';

const NEVER = new AbortController().signal;

test('the body is the event as JSON and the signature is the HMAC-SHA256 of its exact bytes', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const sink = WebhookSink.plain({ name: 'webhook', url: receiver.url, signingSecret: 's3cret', maxBackoffMs: 100 });
  const record = flagCreated('color');
  record.after = { ...(record.after as object), description: 'a <b> & "c"' };
  const event = toAuditEvent(record);
  await sink.deliver(event, NEVER);

  const [seen] = receiver.requests;
  t.is(seen?.method, 'POST');
  t.is(seen?.url, '/audit');
  t.is(seen?.headers['content-type'], 'application/json');
  const body = seen?.body ?? Buffer.alloc(0);
  t.is(seen?.headers['x-flipt-webhook-signature'], createHmac('sha256', 's3cret').update(body).digest('hex'));
  t.deepEqual(JSON.parse(body.toString()), JSON.parse(JSON.stringify(event)));
  // Go's json.Marshal escapes <, > and & (the signature covers these bytes).
  t.true(body.toString().includes('"description":"a \\u003cb\\u003e \\u0026 \\"c\\""'));
});

test('without a secret there is no signature header', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await WebhookSink.plain({ name: 'webhook', url: receiver.url, maxBackoffMs: 100 }).deliver(toAuditEvent(flagCreated('color')), NEVER);
  t.is(receiver.requests[0]?.headers['x-flipt-webhook-signature'], undefined);
});

test('a template posts its rendered body to its own URL with its headers', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const sink = WebhookSink.templated({
    name: 'webhook.templates[0]',
    url: `${receiver.url}/slack?channel=flags`,
    body: '{"text": "{{ .Metadata.Actor.Name }} {{ .Action }} {{ .Type }} {{ .Payload.key }}", "payload": {{ toJson .Payload }}}',
    headers: { Authorization: 'Bearer xyz', 'X-Team': 'flags' },
    maxBackoffMs: 100,
  });
  await sink.deliver(toAuditEvent(flagCreated('color')), NEVER);
  const [seen] = receiver.requests;
  t.is(seen?.url, '/audit/slack?channel=flags');
  t.is(seen?.headers.authorization, 'Bearer xyz');
  t.is(seen?.headers['x-team'], 'flags');
  t.is(seen?.headers['content-type'], 'application/json');
  t.is(seen?.headers['x-flipt-webhook-signature'], undefined);
  t.deepEqual(JSON.parse(seen?.body.toString() ?? ''), {
    text: 'ci created flag color',
    payload: { description: '', enabled: true, key: 'color', name: 'color', namespace_key: 'default' },
  });
});

test('a non-2xx answer or an unreachable receiver rejects the delivery (so it is retried)', async (t) => {
  const receiver = await startReceiver(() => 503);
  t.teardown(() => receiver.close());
  const event = toAuditEvent(flagCreated('color'));
  await t.throwsAsync(WebhookSink.plain({ name: 'webhook', url: receiver.url, maxBackoffMs: 100 }).deliver(event, NEVER), { message: 'HTTP 503' });
  await t.throwsAsync(WebhookSink.plain({ name: 'webhook', url: 'http://127.0.0.1:1/', maxBackoffMs: 100 }).deliver(event, NEVER));
});

test('a receiver that hangs is cut off by the request timeout, garbage collection or not', async (t) => {
  const receiver = await startReceiver(() => 'hang');
  t.teardown(() => receiver.close());
  // Node 20 can collect an AbortSignal.timeout() held only by AbortSignal.any(), so it never fires.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const collecting = setInterval(gc, 10);
  t.teardown(() => clearInterval(collecting));
  // The receiver never answers: only the request timeout can end the delivery.
  await t.throwsAsync(WebhookSink.plain({ name: 'webhook', url: receiver.url, maxBackoffMs: 100, timeoutMs: 150 }).deliver(toAuditEvent(flagCreated('color')), NEVER), {
    message: 'no answer within 150 ms',
  });
});

test('a template that renders invalid JSON is undeliverable; a bad URL or template fails at construction', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const sink = WebhookSink.templated({ name: 't', url: receiver.url, body: '{"payload": {{ .Payload }}}', maxBackoffMs: 100 });
  await t.throwsAsync(sink.deliver(toAuditEvent(flagCreated('color')), NEVER), { name: 'UndeliverableError', message: /valid JSON/ });
  t.is(receiver.requests.length, 0);
  t.throws(() => WebhookSink.plain({ name: 'webhook', url: 'not a url', maxBackoffMs: 100 }), { message: /"not a url" is not a URL/ });
  t.throws(() => WebhookSink.templated({ name: 'webhook.templates[1]', url: receiver.url, body: '{{ .Nope }}', maxBackoffMs: 100 }), {
    message: /webhook\.templates\[1\].*\{\{ \.Nope \}\}/,
  });
});
