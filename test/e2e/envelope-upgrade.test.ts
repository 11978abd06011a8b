/**
 * The last step of a rolling upgrade from the previous envelope format: a control plane still
 * writing format 1 (`nats.envelope_version: 1`, whole snapshots the previous release reads) is
 * replaced by one writing this release's format on the same database, and the evaluator following
 * the bucket keeps answering and converging across the switch.
 */
import test from 'ava';
import { namespaceKeyToDeltaKey, namespaceKeyToKvKey } from '@ensign/bus';
import { type EnsignProcess, jsonClient, type JsonClient, NATS_URL, scratchDir, startEnsign, testBucket } from '@ensign/testkit';
import { connect } from 'nats';

const NS = 'upgrade';
const FLAG = 'switch';
const bucket = testBucket();
const processes: EnsignProcess[] = [];

test.after.always(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await bucket.drop();
});

/** The format (`v`) of what the bucket holds under a key; undefined when nothing is there. */
async function formatAt(key: string): Promise<unknown> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const entry = await (await nc.jetstream().views.kv(bucket.bucket)).get(key);
    return entry?.operation === 'PUT' ? (JSON.parse(Buffer.from(entry.value).toString('utf8')) as { v?: unknown }).v : undefined;
  } finally {
    await nc.close();
  }
}

/** Sets the flag through the control plane and waits (bounded) until the evaluator answers it. */
async function setAndConverge(api: JsonClient, evaluator: JsonClient, enabled: boolean): Promise<boolean> {
  const res = await api.put(`/api/v1/namespaces/${NS}/flags/${FLAG}`, { key: FLAG, name: FLAG, enabled });
  if (res.status !== 200) throw new Error(`write refused: HTTP ${res.status} ${res.text}`);
  for (let i = 0; i < 200; i++) {
    const answer = await evaluator.post('/evaluate/v1/boolean', { namespaceKey: NS, flagKey: FLAG, entityId: 'u1', context: {} });
    if (answer.status !== 200) throw new Error(`evaluation failed: HTTP ${answer.status} ${answer.text}`);
    if (answer.body.enabled === enabled) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

test('an evaluator converges on what a control plane writes in the previous format, and on through the switch to this one', async (t) => {
  const cwd = scratchDir();
  const pinned = await startEnsign({ command: 'server', cwd, env: { ...bucket.env(), ENSIGN_NATS_ENVELOPE_VERSION: '1' } });
  processes.push(pinned);
  const api = jsonClient(pinned.baseUrl);
  t.is((await api.post('/api/v1/namespaces', { key: NS, name: NS })).status, 200);
  t.is((await api.post(`/api/v1/namespaces/${NS}/flags`, { key: FLAG, name: FLAG, type: 'BOOLEAN_FLAG_TYPE', enabled: true })).status, 200);
  const evaluatorProcess = await startEnsign({ command: 'evaluator', env: bucket.env() });
  processes.push(evaluatorProcess);
  const evaluator = jsonClient(evaluatorProcess.baseUrl);

  for (const enabled of [false, true, false]) t.true(await setAndConverge(api, evaluator, enabled), `format 1: enabled=${enabled} reached the evaluator`);
  t.is(await formatAt(namespaceKeyToKvKey(NS)), 1, 'the bucket holds whole snapshots in the previous format');
  t.is(await formatAt(namespaceKeyToDeltaKey(NS)), undefined, 'and no delta, which the previous release would not read');

  t.is(await pinned.stop(), 0);
  const current = await startEnsign({ command: 'server', cwd, env: bucket.env() });
  processes.push(current);
  const upgraded = jsonClient(current.baseUrl);
  for (const enabled of [true, false, true]) t.true(await setAndConverge(upgraded, evaluator, enabled), `format 3: enabled=${enabled} reached the evaluator`);
  t.is(await formatAt(namespaceKeyToDeltaKey(NS)), 3, 'changes now go out as deltas of this release’s format');
});
