/** The usage shipper: what it reads of the tally, how it retries, how much it keeps, what it does on stop. */
import type { UsageBatch, UsageCount } from '@ensign/core';
import type { BooleanResult, VariantResult } from '@ensign/engine';
import test from 'ava';
import { EvaluationTally } from '../src/metrics/evaluation-tally.js';
import { UsageShipper } from '../src/metrics/usage-shipper.js';

const blue: VariantResult = Object.freeze({ match: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: ['pro'], variantKey: 'blue', variantAttachment: '' });
const none: VariantResult = Object.freeze({ match: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [], variantKey: '', variantAttachment: '' });
const on: BooleanResult = Object.freeze({ enabled: true, reason: 'MATCH_EVALUATION_REASON', segmentKeys: [] });
const off: BooleanResult = Object.freeze({ enabled: false, reason: 'DEFAULT_EVALUATION_REASON', segmentKeys: [] });

function repeat(times: number, evaluate: () => void): void {
  for (let i = 0; i < times; i++) evaluate();
}

/** A receiver that stores, or fails while `failing` is set, and keeps every attempt. */
function receiver() {
  const attempts: UsageBatch[] = [];
  const stored = new Map<string, UsageBatch>();
  const state = { failing: false };
  return {
    state,
    attempts,
    stored,
    send: async (batch: UsageBatch): Promise<void> => {
      attempts.push(structuredClone(batch));
      if (state.failing) throw new Error('control plane away');
      stored.set(batch.id, structuredClone(batch));
    },
    /** Stored counts summed by namespace/flag/value/reason. */
    sums(): Record<string, number> {
      const sums: Record<string, number> = {};
      for (const { counts } of stored.values()) for (const c of counts) sums[key(c)] = (sums[key(c)] ?? 0) + c.count;
      return sums;
    },
  };
}
const key = (c: UsageCount): string => `${c.namespaceKey}/${c.flagKey}/${c.value}/${c.reason}`;

function recordingLogger() {
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  return { lines, info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj }), warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, obj }) };
}

test('each flush ships what was counted since the previous one, values and reasons from the labels', async (t) => {
  const tally = new EvaluationTally();
  const r = receiver();
  const shipper = new UsageShipper({ tally, send: r.send, flushPeriodMs: 60_000, processId: 'p1', now: () => 1000 });
  repeat(3, () => tally.variant('ns', 'color', blue, 1));
  tally.variant('ns', 'color', none, 1);
  repeat(2, () => tally.boolean('ns', 'new-ui', on, 1));
  tally.boolean('other', 'new-ui', off, 1);
  tally.error('ns', 'color', 1);
  await shipper.flush();
  t.is(r.attempts.length, 1);
  t.like(r.attempts[0], { id: 'p1-1', at: 1000 });
  t.deepEqual(
    [...(r.attempts[0] as UsageBatch).counts].sort((a, b) => key(a).localeCompare(key(b))),
    [
      { namespaceKey: 'ns', flagKey: 'color', value: '', reason: 'DEFAULT_EVALUATION_REASON', count: 1 },
      { namespaceKey: 'ns', flagKey: 'color', value: 'blue', reason: 'MATCH_EVALUATION_REASON', count: 3 },
      { namespaceKey: 'ns', flagKey: 'new-ui', value: 'true', reason: 'MATCH_EVALUATION_REASON', count: 2 },
      { namespaceKey: 'other', flagKey: 'new-ui', value: 'false', reason: 'DEFAULT_EVALUATION_REASON', count: 1 },
    ],
  );

  repeat(4, () => tally.variant('ns', 'color', blue, 1));
  await shipper.flush();
  t.deepEqual(r.attempts[1], { id: 'p1-2', at: 1000, counts: [{ namespaceKey: 'ns', flagKey: 'color', value: 'blue', reason: 'MATCH_EVALUATION_REASON', count: 4 }] });

  await shipper.flush();
  t.is(r.attempts.length, 2, 'nothing counted, nothing sent');
});

test('a failed batch is sent again under its id, before the next one, and nothing is counted twice or lost', async (t) => {
  const tally = new EvaluationTally();
  const r = receiver();
  const logger = recordingLogger();
  const shipper = new UsageShipper({ tally, send: r.send, flushPeriodMs: 60_000, processId: 'p', logger });
  repeat(5, () => tally.variant('ns', 'color', blue, 1));
  r.state.failing = true;
  await shipper.flush();
  repeat(2, () => tally.variant('ns', 'color', blue, 1));
  await shipper.flush();
  t.deepEqual(r.attempts.map((b) => b.id), ['p-1', 'p-1'], 'the oldest is retried; the newer one waits behind it');
  t.deepEqual(shipper.backlog(), { batches: 2, counts: 7 });
  t.is(logger.lines.filter((l) => l.level === 'warn').length, 1, 'one warning for the outage, not one per attempt');

  r.state.failing = false;
  await shipper.flush();
  t.deepEqual(r.attempts.map((b) => b.id), ['p-1', 'p-1', 'p-1', 'p-2']);
  t.deepEqual(r.sums(), { 'ns/color/blue/MATCH_EVALUATION_REASON': 7 });
  t.deepEqual(shipper.backlog(), { batches: 0, counts: 0 });
  t.true(logger.lines.some((l) => l.level === 'info' && l.msg === 'evaluation counts shipped again'));
});

test('a batch stored whose reply was lost is sent again under the same id, so an idempotent receiver counts it once', async (t) => {
  const tally = new EvaluationTally();
  const stored = new Map<string, UsageBatch>();
  let loseReply = true;
  const send = async (batch: UsageBatch): Promise<void> => {
    stored.set(batch.id, batch);
    if (loseReply) {
      loseReply = false;
      throw new Error('timeout');
    }
  };
  const shipper = new UsageShipper({ tally, send, flushPeriodMs: 60_000 });
  repeat(3, () => tally.boolean('ns', 'f', on, 1));
  await shipper.flush();
  await shipper.flush();
  t.is(stored.size, 1);
  t.is([...stored.values()][0]?.counts[0]?.count, 3);
});

test('a long outage keeps a bounded number of batches, merging the untried ones with a log line, and loses no count', async (t) => {
  const tally = new EvaluationTally();
  const r = receiver();
  const logger = recordingLogger();
  const shipper = new UsageShipper({ tally, send: r.send, flushPeriodMs: 60_000, processId: 'p', maxPendingBatches: 3, logger, now: (() => { let at = 0; return () => (at += 1000); })() });
  r.state.failing = true;
  let made = 0;
  for (let flush = 0; flush < 50; flush++) {
    repeat(flush % 3, () => tally.variant('ns', 'color', blue, 1));
    tally.boolean('ns', `flag-${flush % 4}`, on, 1);
    made += (flush % 3) + 1;
    await shipper.flush();
    t.true(shipper.backlog().batches <= 3, `flush ${flush}: ${shipper.backlog().batches} batches kept`);
  }
  t.is(shipper.backlog().counts, made);
  t.true(r.attempts.every((b) => b.id === 'p-1'), 'only the first batch was ever tried, under its own id');
  t.true(logger.lines.some((l) => l.level === 'warn' && l.msg.includes('merged into one')));

  r.state.failing = false;
  await shipper.flush();
  const total = Object.values(r.sums()).reduce((a, b) => a + b, 0);
  t.is(total, made);
  t.is(r.sums()['ns/color/blue/MATCH_EVALUATION_REASON'], 49, 'sum of flush % 3 over 50 flushes');
  t.deepEqual(shipper.backlog(), { batches: 0, counts: 0 });
});

test('many counted results are split into batches of a bounded size, also when merged during an outage', async (t) => {
  const tally = new EvaluationTally();
  const r = receiver();
  const shipper = new UsageShipper({ tally, send: r.send, flushPeriodMs: 60_000, processId: 'p', maxCountsPerBatch: 10, maxPendingBatches: 2 });
  for (let flag = 0; flag < 25; flag++) tally.boolean('ns', `f${flag}`, on, 1);
  await shipper.flush();
  t.deepEqual(r.attempts.map((b) => b.counts.length), [10, 10, 5]);

  r.state.failing = true;
  for (let round = 0; round < 6; round++) {
    for (let flag = 0; flag < 25; flag++) tally.boolean('ns', `f${flag}`, off, 1);
    await shipper.flush();
  }
  t.true(shipper.backlog().batches <= 4, `${shipper.backlog().batches} batches kept`);
  r.state.failing = false;
  await shipper.flush();
  t.true(r.attempts.every((b) => b.counts.length <= 10));
  const sums = r.sums();
  t.is(sums['ns/f7/false/DEFAULT_EVALUATION_REASON'], 6);
  t.is(Object.values(sums).reduce((a, b) => a + b, 0), 25 + 25 * 6);
});

test('stop flushes once, so what was counted since the last period is shipped', async (t) => {
  const tally = new EvaluationTally();
  const r = receiver();
  const shipper = new UsageShipper({ tally, send: r.send, flushPeriodMs: 60_000 });
  shipper.start();
  repeat(2, () => tally.boolean('ns', 'f', off, 1));
  await shipper.stop();
  t.deepEqual(r.sums(), { 'ns/f/false/DEFAULT_EVALUATION_REASON': 2 });
});

test('stop gives up on a receiver that never answers after its timeout, saying what was not shipped', async (t) => {
  const tally = new EvaluationTally();
  const logger = recordingLogger();
  const shipper = new UsageShipper({ tally, send: () => new Promise<void>(() => undefined), flushPeriodMs: 60_000, stopTimeoutMs: 50, logger });
  repeat(4, () => tally.boolean('ns', 'f', on, 1));
  // The send never settles: only giving up can end the stop.
  await shipper.stop();
  t.like(logger.lines.find((l) => l.msg === 'evaluation counts not shipped before shutdown')?.obj, { batches: 1, counts: 4 });
});

test('the timer flushes every period', async (t) => {
  const tally = new EvaluationTally();
  const r = receiver();
  const shipper = new UsageShipper({ tally, send: r.send, flushPeriodMs: 20 });
  shipper.start();
  t.teardown(() => shipper.stop());
  tally.boolean('ns', 'f', on, 1);
  for (let i = 0; i < 100 && r.stored.size === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.deepEqual(r.sums(), { 'ns/f/true/MATCH_EVALUATION_REASON': 1 });
});
