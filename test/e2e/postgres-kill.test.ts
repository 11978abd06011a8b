/**
 * PostgreSQL killed with SIGKILL under a stream of writes, then started again: the server keeps
 * running, each write sent while the database is gone is answered 503 with `Retry-After`, every
 * write it acknowledged is in the database and evaluates afterwards, and writes succeed again
 * without restarting the server. Evaluation keeps answering from the snapshot throughout.
 * The database is a server of the test's own (its own port and data directory).
 */
import { jsonClient, type JsonClient, type EnsignProcess, startEnsign } from '@ensign/testkit';
import test from 'ava';
import { delay } from '../helpers/scale-out.js';
import { createPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';

/** A write every 50 ms (about 20 a second), each sent once the one before is answered. */
const WRITE_INTERVAL_MS = 50;

let postgres: PrivatePostgres | undefined;
let server: EnsignProcess | undefined;

test.after.always(async () => {
  await server?.stop();
  await postgres?.remove();
});

interface Outcome {
  key: string;
  status: number;
  retryAfter: string | null;
  error?: string;
}

/** Creates flags `w-0`, `w-1`, … one after another until `stop()`, recording each answer. */
function writeUntilStopped(api: JsonClient) {
  const outcomes: Outcome[] = [];
  let stopping = false;
  const done = (async () => {
    for (let i = 0; !stopping; i++) {
      const key = `w-${i}`;
      try {
        const res = await api.post('/api/v1/namespaces/default/flags', { key, name: key, type: 'BOOLEAN_FLAG_TYPE', enabled: true });
        outcomes.push({ key, status: res.status, retryAfter: res.headers.get('retry-after') });
      } catch (err) {
        outcomes.push({ key, status: 0, retryAfter: null, error: String(err) });
      }
      await delay(WRITE_INTERVAL_MS);
    }
  })();
  return {
    outcomes,
    count: (status: number) => outcomes.filter((o) => o.status === status).length,
    async stop(): Promise<Outcome[]> {
      stopping = true;
      await done;
      return outcomes;
    },
  };
}

/** Waits (bounded) until `check` holds, failing with `what`. */
async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await delay(20);
  }
}

test('PostgreSQL killed with -9 and restarted under writes: 503 with Retry-After meanwhile, nothing acknowledged lost, writes resume without a restart', async (t) => {
  postgres = await createPrivatePostgres();
  server = await startEnsign({ env: { ENSIGN_DB_URL: postgres.url, ENSIGN_LOG_LEVEL: 'warn' } });
  let exited = false;
  void server.exited.then(() => (exited = true));
  const api = jsonClient(server.baseUrl);
  const writes = writeUntilStopped(api);

  await until('a few writes are acknowledged', () => writes.count(200) >= 10);
  const beforeKill = writes.count(200);
  await postgres.kill9();
  await until('writes are refused while the database is gone', () => writes.count(503) >= 5);

  // The snapshot still answers evaluations while the database is gone.
  const during = await api.post('/evaluate/v1/boolean', { namespaceKey: 'default', flagKey: 'w-0', entityId: 'u1' });
  t.like(during, { status: 200, body: { enabled: true } }, during.text);

  await postgres.start();
  const refusedBeforeRestart = writes.count(503);
  await until('writes are acknowledged again after the restart', () => writes.count(200) >= beforeKill + 10 && writes.outcomes.at(-1)?.status === 200);
  const outcomes = await writes.stop();

  t.true(refusedBeforeRestart >= 5);
  for (const refused of outcomes.filter((o) => o.status === 503)) t.is(refused.retryAfter, '1', `${refused.key}: a 503 says when to try again`);
  t.deepEqual(outcomes.filter((o) => o.status !== 200 && o.status !== 503), [], 'every write was acknowledged or refused as unavailable; the server never went away');
  t.false(exited, `the server kept running: ${server.logs().slice(-2000)}`);

  const acknowledged = outcomes.filter((o) => o.status === 200).map((o) => o.key);
  const stored = new Set((await postgres.query<{ key: string }>("SELECT key FROM flags WHERE namespace_key = 'default'")).map((r) => r.key));
  t.deepEqual(acknowledged.filter((key) => !stored.has(key)), [], 'every acknowledged write is in the database');

  // Each acknowledged flag evaluates: the snapshot caught up with every write after the outage.
  const batch = await api.post('/evaluate/v1/batch', { requests: acknowledged.map((flagKey) => ({ namespaceKey: 'default', flagKey, entityId: 'u1' })) });
  t.is(batch.status, 200, batch.text);
  const notFound = (batch.body.responses as Array<{ responseType: string }>).flatMap((r, i) => (r.responseType === 'RESPONSE_TYPE_ERROR' ? [acknowledged[i]] : []));
  t.deepEqual(notFound, [], 'every acknowledged flag evaluates');
  t.log(`${acknowledged.length} writes acknowledged, ${outcomes.length - acknowledged.length} refused with 503 while PostgreSQL was down`);
});
