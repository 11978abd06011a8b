/** `audit.retention`: what the hourly job deletes, and that 0 keeps everything. */
import test from 'ava';
import { pino } from 'pino';
import { HistoryRetention } from '../src/index.js';
import { eventually } from '@ensign/testkit';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');

function recorder() {
  const cutoffs: Date[] = [];
  return { cutoffs, history: { prune: async (before: Date) => (cutoffs.push(before), 3) } };
}

test('a run deletes the entries older than the retention, and says how many', async (t) => {
  const { cutoffs, history } = recorder();
  const lines: string[] = [];
  const logger = pino({}, { write: (line: string) => void lines.push(line) });
  const retention = new HistoryRetention({ history, retentionMs: 90 * DAY, logger, now: () => NOW });
  t.is(await retention.runOnce(), 3);
  t.deepEqual(cutoffs, [new Date(NOW - 90 * DAY)]);
  t.like(JSON.parse(lines[0] ?? '{}'), { msg: 'change history pruned', count: 3 });
});

test('start prunes at once and then every interval; retention 0 never prunes', async (t) => {
  const kept = recorder();
  const off = new HistoryRetention({ history: kept.history, retentionMs: 0, logger: pino({ level: 'silent' }), intervalMs: 10 });
  off.start();
  const on = recorder();
  const running = new HistoryRetention({ history: on.history, retentionMs: DAY, logger: pino({ level: 'silent' }), intervalMs: 10 });
  running.start();
  await eventually(() => on.cutoffs.length >= 3);
  await Promise.all([off.stop(), running.stop()]);
  t.deepEqual(kept.cutoffs, []);
  t.true(on.cutoffs.length >= 3, `${on.cutoffs.length} runs`);
});

test('a failed run is logged and the next one still comes', async (t) => {
  let calls = 0;
  const lines: string[] = [];
  const history = { prune: async () => { calls++; if (calls === 1) throw new Error('database gone'); return 0; } };
  const retention = new HistoryRetention({ history, retentionMs: DAY, logger: pino({}, { write: (line: string) => void lines.push(line) }), intervalMs: 10 });
  retention.start();
  await eventually(() => calls >= 2 && lines.some((line) => line.includes('pruning the change history failed')));
  await retention.stop();
  t.true(calls >= 2);
  t.true(lines.some((line) => line.includes('pruning the change history failed')));
});
