/** The StepRunner takes what is due at start in order, then follows the clock to the next step. */
import test from 'ava';
import type { DueStep } from '@ensign/store';
import { pino } from 'pino';
import { StepRunner, type StepStore } from '../src/index.js';
import { eventually } from '@ensign/testkit';

/** Steps in memory, taken once each, with the order they were taken in. */
class MemorySteps implements StepStore {
  readonly taken: string[] = [];
  failing = false;
  constructor(readonly pending: DueStep[]) {}

  async due(now: string, limit = 100): Promise<DueStep[]> {
    if (this.failing) throw new Error('database down');
    return this.pending.filter((s) => s.at <= now).sort((a, b) => a.at.localeCompare(b.at)).slice(0, limit);
  }

  async nextAt(): Promise<string | undefined> {
    return [...this.pending].sort((a, b) => a.at.localeCompare(b.at))[0]?.at;
  }

  async apply(step: DueStep): Promise<boolean> {
    const i = this.pending.findIndex((s) => s.id === step.id);
    if (i < 0) return false;
    this.pending.splice(i, 1);
    this.taken.push(step.id);
    return true;
  }
}

const step = (id: string, atMs: number): DueStep => ({ id, namespaceKey: 'ns', flagKey: 'f', at: new Date(atMs).toISOString() });
const silent = pino({ level: 'silent' });

test('missed steps are taken at start, oldest first; a step to come is taken at its time, not at the next poll', async (t) => {
  const now = Date.now();
  const steps = new MemorySteps([step('second', now - 1_000), step('first', now - 60_000), step('soon', now + 300), step('later', now + 3_600_000)]);
  const runner = new StepRunner({ steps, logger: silent, pollMs: 60_000 });
  await runner.start();
  t.deepEqual(steps.taken, ['first', 'second']);
  t.true(await eventually(() => steps.taken.includes('soon')));
  t.false(steps.taken.includes('later'));
  t.true(Date.now() >= now + 300, 'not before its time');
  await runner.stop();
  t.is(runner.counts.applied, 3);
});

test('a step set meanwhile is found when woken; a failing database is retried', async (t) => {
  const steps = new MemorySteps([]);
  const runner = new StepRunner({ steps, logger: silent, pollMs: 100 });
  steps.failing = true;
  await runner.start();
  t.is(runner.counts.failed, 1);
  steps.failing = false;
  steps.pending.push(step('meanwhile', Date.now() - 10));
  runner.wake();
  t.true(await eventually(() => steps.taken.includes('meanwhile')));
  await runner.stop();
});
