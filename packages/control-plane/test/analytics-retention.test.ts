/** The hourly pruning of evaluation counts: its cut-offs, their defaults, 0 keeping everything, and failures. */
import test from 'ava';
import { pino } from 'pino';
import { AnalyticsRetention } from '../src/index.js';
import { eventually } from '@ensign/testkit';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');
const PRUNED = { minutes: 5, hours: 1, batches: 2, lasts: 0 };

function recorder() {
  const cutoffs: Array<[Date, Date]> = [];
  return { cutoffs, usage: { prune: async (minuteBefore: Date, hourBefore: Date) => (cutoffs.push([minuteBefore, hourBefore]), PRUNED) } };
}

test('a run deletes minutes older than 7 days and hours older than 90 unless told, and says how many', async (t) => {
  const { cutoffs, usage } = recorder();
  const lines: string[] = [];
  const logger = pino({}, { write: (line: string) => void lines.push(line) });
  t.deepEqual(await new AnalyticsRetention({ usage, logger, now: () => NOW }).runOnce(), PRUNED);
  await new AnalyticsRetention({ usage, logger, now: () => NOW, minuteRetentionMs: DAY, hourRetentionMs: 10 * DAY }).runOnce();
  await new AnalyticsRetention({ usage, logger, now: () => NOW, minuteRetentionMs: 0, hourRetentionMs: 0 }).runOnce();
  t.deepEqual(cutoffs, [
    [new Date(NOW - 7 * DAY), new Date(NOW - 90 * DAY)],
    [new Date(NOW - DAY), new Date(NOW - 10 * DAY)],
    [new Date(0), new Date(0)],
  ]);
  t.like(JSON.parse(lines[0] ?? '{}'), { msg: 'evaluation counts pruned', minutes: 5, hours: 1, batches: 2 });
});

test('start prunes at once and then every interval; a failed run is logged and the next one still comes', async (t) => {
  let calls = 0;
  const lines: string[] = [];
  const usage = {
    prune: async () => {
      calls++;
      if (calls === 1) throw new Error('database gone');
      return PRUNED;
    },
  };
  const retention = new AnalyticsRetention({ usage, logger: pino({}, { write: (line: string) => void lines.push(line) }), intervalMs: 10 });
  retention.start();
  await eventually(() => calls >= 3 && lines.length > 0);
  await retention.stop();
  t.true(calls >= 3, `${calls} runs`);
  t.true(lines.some((line) => line.includes('pruning the evaluation counts failed')));
});
