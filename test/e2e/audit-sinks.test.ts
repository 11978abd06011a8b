/**
 * Flipt's audit sinks on a real `ensign server`: every kind of write reaches a webhook receiver as
 * Flipt's signed event JSON (with Ensign's before and after) and the log file as one line each; a
 * receiver that fails or hangs never slows a write, and once it answers again it gets every event
 * exactly once, in commit order.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { type EnsignProcess, jsonClient, type JsonClient, startEnsign } from '@ensign/testkit';
import { ok } from '../helpers/api.js';

const SECRET = 'audit-signing-secret';

interface Received {
  raw: string;
  headers: IncomingHttpHeaders;
  event: { version: string; type: string; action: string; status: string; timestamp: string; metadata: { actor?: Record<string, string> }; payload: Record<string, unknown>; ensign?: { revision: number; before?: unknown; after?: unknown } };
}

/** A webhook receiver on 127.0.0.1 whose answer the test decides: a status, or no answer at all. */
class Receiver {
  readonly received: Received[] = [];
  answer: number | 'hang' = 200;
  private readonly server: Server;
  private readonly hanging = new Set<() => void>();

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (this.answer === 'hang') {
          this.hanging.add(() => res.destroy());
          return;
        }
        if (this.answer === 200) {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({ raw, headers: req.headers, event: JSON.parse(raw) as Received['event'] });
        }
        res.writeHead(this.answer).end();
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Requests held without an answer so far. */
  get hung(): number {
    return this.hanging.size;
  }

  /** Resolves once `check` holds of the receiver, or after `timeoutMs`. */
  async untilTrue(check: () => boolean, timeoutMs = 60_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return check();
  }

  async until(count: number, timeoutMs = 30_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    return this.received;
  }

  async close(): Promise<void> {
    for (const end of this.hanging) end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const dirs: string[] = [];
const processes: EnsignProcess[] = [];
const receivers: Receiver[] = [];
test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await Promise.all(receivers.map((r) => r.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function serverWithSinks(env: Record<string, string>): Promise<{ server: EnsignProcess; api: JsonClient; receiver: Receiver; logFile: string }> {
  const receiver = new Receiver();
  receivers.push(receiver);
  const url = await receiver.listen();
  const dir = mkdtempSync(join(tmpdir(), 'ensign-audit-e2e-'));
  dirs.push(dir);
  const logFile = join(dir, 'audit', 'events.log');
  const server = await startEnsign({
    env: {
      ENSIGN_AUDIT_SINKS_WEBHOOK_ENABLED: 'true',
      ENSIGN_AUDIT_SINKS_WEBHOOK_URL: url,
      ENSIGN_AUDIT_SINKS_WEBHOOK_SIGNING_SECRET: SECRET,
      ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'true',
      ENSIGN_AUDIT_SINKS_LOG_FILE: logFile,
      ENSIGN_AUDIT_BUFFER_CAPACITY: '2',
      ENSIGN_AUDIT_BUFFER_FLUSH_PERIOD: '1s',
      ...env,
    },
  });
  processes.push(server);
  return { server, api: jsonClient(server.baseUrl), receiver, logFile };
}

/** Every kind of write, in order; resolves the `type:action` of each. */
async function everyKindOfWrite(api: JsonClient, ns: string): Promise<string[]> {
  const done: string[] = [];
  const base = `/api/v1/namespaces/${ns}`;
  const w = async (what: string, method: 'post' | 'put' | 'delete', path: string, body?: unknown) => {
    const res = method === 'delete' ? await api.del(path) : await api[method](path, body);
    done.push(what);
    return ok(res, `${what} ${path}`);
  };
  await w('namespace:created', 'post', '/api/v1/namespaces', { key: ns, name: 'Audit' });
  await w('namespace:updated', 'put', `/api/v1/namespaces/${ns}`, { name: 'Audited' });
  await w('flag:created', 'post', `${base}/flags`, { key: 'color', name: 'Color', description: 'the colour', enabled: true });
  const blue = (await w('variant:created', 'post', `${base}/flags/color/variants`, { key: 'blue', name: 'Blue', attachment: '{"hex":"#00f"}' })).id as string;
  const red = (await w('variant:created', 'post', `${base}/flags/color/variants`, { key: 'red', name: 'Red' })).id as string;
  await w('variant:updated', 'put', `${base}/flags/color/variants/${red}`, { key: 'red', name: 'Crimson' });
  await w('flag:updated', 'put', `${base}/flags/color`, { name: 'Color', enabled: false, defaultVariantId: blue });
  await w('segment:created', 'post', `${base}/segments`, { key: 'pro', name: 'Pro', matchType: 'ALL_MATCH_TYPE' });
  await w('segment:updated', 'put', `${base}/segments/pro`, { name: 'Pro users', matchType: 'ANY_MATCH_TYPE' });
  const constraint = (await w('constraint:created', 'post', `${base}/segments/pro/constraints`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' })).id as string;
  await w('constraint:updated', 'put', `${base}/segments/pro/constraints/${constraint}`, { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'gold' });
  const rule1 = (await w('rule:created', 'post', `${base}/flags/color/rules`, { segmentKey: 'pro', rank: 1 })).id as string;
  const rule2 = (await w('rule:created', 'post', `${base}/flags/color/rules`, { segmentKey: 'pro', rank: 2 })).id as string;
  await w('rule:updated', 'put', `${base}/flags/color/rules/${rule1}`, { segmentKey: 'pro', segmentOperator: 'OR_SEGMENT_OPERATOR' });
  await w('rule:updated', 'put', `${base}/flags/color/rules/order`, { ruleIds: [rule2, rule1] });
  const dist = (await w('distribution:created', 'post', `${base}/flags/color/rules/${rule1}/distributions`, { variantId: blue, rollout: 60 })).id as string;
  await w('distribution:updated', 'put', `${base}/flags/color/rules/${rule1}/distributions/${dist}`, { variantId: blue, rollout: 40 });
  await w('distribution:deleted', 'delete', `${base}/flags/color/rules/${rule1}/distributions/${dist}?variantId=${blue}`);
  await w('rule:deleted', 'delete', `${base}/flags/color/rules/${rule2}`);
  await w('flag:created', 'post', `${base}/flags`, { key: 'dark', name: 'Dark', type: 'BOOLEAN_FLAG_TYPE' });
  const r1 = (await w('rollout:created', 'post', `${base}/flags/dark/rollouts`, { rank: 1, threshold: { percentage: 20, value: true } })).id as string;
  const r2 = (await w('rollout:created', 'post', `${base}/flags/dark/rollouts`, { rank: 2, segment: { segmentKey: 'pro', value: true } })).id as string;
  await w('rollout:updated', 'put', `${base}/flags/dark/rollouts/${r1}`, { threshold: { percentage: 30, value: true } });
  await w('rollout:updated', 'put', `${base}/flags/dark/rollouts/order`, { rolloutIds: [r2, r1] });
  await w('rollout:deleted', 'delete', `${base}/flags/dark/rollouts/${r2}`);
  await w('variant:deleted', 'delete', `${base}/flags/color/variants/${red}`);
  await w('constraint:deleted', 'delete', `${base}/segments/pro/constraints/${constraint}`);
  await w('flag:deleted', 'delete', `${base}/flags/dark`);
  await w('rule:deleted', 'delete', `${base}/flags/color/rules/${rule1}`);
  await w('segment:deleted', 'delete', `${base}/segments/pro`);
  await w('flag:deleted', 'delete', `${base}/flags/color`);
  await w('namespace:deleted', 'delete', `/api/v1/namespaces/${ns}`);
  return done;
}

test.serial('every kind of write reaches the webhook signed, in Flipt’s event JSON, and the log file, one line each', async (t) => {
  const { api, receiver, logFile } = await serverWithSinks({});
  const ns = 'audited';
  const writes = await everyKindOfWrite(api, ns);
  const received = await receiver.until(writes.length);
  t.is(received.length, writes.length, 'one event per write');
  t.deepEqual(received.map((r) => `${r.event.type}:${r.event.action}`), writes, 'in commit order');

  for (const { raw, headers, event } of received) {
    t.is(headers['content-type'], 'application/json');
    t.is(headers['x-flipt-webhook-signature'], createHmac('sha256', SECRET).update(raw).digest('hex'), 'signed over the exact body');
    t.is(event.version, '0.2');
    t.is(event.status, 'success');
    t.regex(event.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
    t.deepEqual(event.metadata.actor, { authentication: 'none' }, 'no authentication: Flipt’s "none"');
  }
  const flagCreated = received[2]?.event;
  t.deepEqual(flagCreated?.payload, { key: 'color', name: 'Color', description: 'the colour', enabled: true, namespace_key: ns });
  t.deepEqual(Object.keys(flagCreated ?? {}), ['version', 'type', 'action', 'metadata', 'payload', 'timestamp', 'status', 'ensign'], 'Flipt’s fields in Flipt’s order, then Ensign’s');
  const flagUpdated = received.find((r) => r.event.type === 'flag' && r.event.action === 'updated')?.event;
  t.like(flagUpdated?.payload, { key: 'color', enabled: false, default_variant: 'blue', namespace_key: ns });
  t.like(flagUpdated?.ensign, { before: { enabled: true }, after: { enabled: false, defaultVariant: { key: 'blue' } } });
  t.true(typeof flagUpdated?.ensign?.revision === 'number');
  const distribution = received.find((r) => r.event.type === 'distribution' && r.event.action === 'updated')?.event;
  t.like(distribution?.payload, { rollout: 40 });
  t.like(distribution?.ensign, { before: { rollout: 60 }, after: { rollout: 40 } });

  const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Received['event']);
  t.deepEqual(lines.map((e) => `${e.type}:${e.action}`), writes, 'the log file has every event, in order');
  t.deepEqual(lines[2]?.payload, flagCreated?.payload);
});

test.serial('a failing or hanging receiver never slows a write; once it answers it gets every event exactly once, in order', async (t) => {
  const { api, receiver } = await serverWithSinks({ ENSIGN_AUDIT_SINKS_WEBHOOK_MAX_BACKOFF_DURATION: '60s', ENSIGN_AUDIT_SINKS_LOG_ENABLED: 'false' });
  ok(await api.post('/api/v1/namespaces', { key: 'outage', name: 'Outage' }));
  await receiver.until(1, 10_000);
  t.is(receiver.received.length, 1);

  receiver.answer = 503;
  for (let i = 0; i < 8; i++) ok(await api.post('/api/v1/namespaces/outage/flags', { key: `down-${i}`, name: `Down ${i}` }));
  t.is(receiver.received.length, 1, 'every write answered while none of its events could be delivered');
  receiver.answer = 'hang';
  // The sink's next attempt is held without an answer: the writes below answer while it hangs.
  t.true(await receiver.untilTrue(() => receiver.hung > 0), 'the sink tried the hanging receiver');
  for (let i = 0; i < 8; i++) ok(await api.post('/api/v1/namespaces/outage/flags', { key: `hung-${i}`, name: `Hung ${i}` }));
  t.is(receiver.received.length, 1, 'every write answered while the receiver held a delivery');

  receiver.answer = 200;
  const received = await receiver.until(17, 60_000);
  const keys = received.slice(1).map((r) => r.event.payload['key']);
  t.deepEqual(keys, [...Array.from({ length: 8 }, (_, i) => `down-${i}`), ...Array.from({ length: 8 }, (_, i) => `hung-${i}`)], 'every event once, in commit order');
});
