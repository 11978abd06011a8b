/** `/metrics` of declarative storage: every outcome present from the start, the last success as Unix time. */
import test from 'ava';
import { Registry } from 'prom-client';
import { type DeclarativeStatus, registerDeclarativeMetrics, type SyncOutcome } from '../../src/declarative/index.js';

test('zero everywhere without declarative storage; counted by outcome, the last success kept through failures', async (t) => {
  const idle = new Registry();
  registerDeclarativeMetrics(idle);
  const text = await idle.metrics();
  for (const outcome of ['applied', 'unchanged', 'invalid', 'error']) t.true(text.includes(`ensign_declarative_sync_total{outcome="${outcome}"} 0`), outcome);
  t.true(text.includes('ensign_declarative_last_success_timestamp_seconds 0'));

  const registry = new Registry();
  let listener: ((outcome: SyncOutcome, status: DeclarativeStatus) => void) | undefined;
  registerDeclarativeMetrics(registry, { onSync: (l) => (listener = l) });
  const lastSync = new Date('2026-11-26T10:00:00Z');
  listener?.('applied', { type: 'local', metadata: {}, lastSync });
  listener?.('invalid', { type: 'local', metadata: {}, lastSync, lastError: { message: 'bad', at: new Date() } });
  listener?.('invalid', { type: 'local', metadata: {}, lastSync, lastError: { message: 'bad', at: new Date() } });
  const counted = await registry.metrics();
  t.true(counted.includes('ensign_declarative_sync_total{outcome="applied"} 1'));
  t.true(counted.includes('ensign_declarative_sync_total{outcome="invalid"} 2'));
  t.true(counted.includes(`ensign_declarative_last_success_timestamp_seconds ${lastSync.getTime() / 1000}`));
});
