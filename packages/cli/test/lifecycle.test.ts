/** The stack every `ensign` process starts its components on: declared order up, reverse order down, each stop once. */
import test from 'ava';
import { Lifecycle, type LifecycleHooks, type OnStop } from '../src/lifecycle.js';

/** A component that records its start and its stop in `events`. */
const recorded = (events: string[], name: string) => (onStop: OnStop) => {
  events.push(`start ${name}`);
  onStop(() => void events.push(`stop ${name}`));
  return name;
};

test('components start in declared order, resolve their values, and stop in reverse, each once', async (t) => {
  const events: string[] = [];
  const stack = new Lifecycle();
  t.is(await stack.start('a', recorded(events, 'a')), 'a');
  t.is(await stack.start('b', async () => 2), 2, 'a component without a stop has nothing to unwind');
  await stack.start('c', recorded(events, 'c'));
  const [first, second] = await Promise.all([stack.stop(10), stack.stop(10)]);
  t.deepEqual(first, []);
  t.is(first, second, 'a second stop waits for the first');
  t.deepEqual(events, ['start a', 'start c', 'stop c', 'stop a']);
  await t.throwsAsync(stack.start('late', recorded(events, 'late')), { message: /stopping/ });
});

test('each stop is given the timeout it may drain in', async (t) => {
  const given: number[] = [];
  const stack = new Lifecycle();
  await stack.start('a', (onStop) => onStop((ms) => void given.push(ms)));
  await stack.stop(1234);
  t.deepEqual(given, [1234]);
});

test('a start that fails after saying how it stops is stopped with the rest', async (t) => {
  const events: string[] = [];
  const stack = new Lifecycle();
  await stack.start('a', recorded(events, 'a'));
  const halfway = stack.start('b', async (onStop) => {
    onStop(() => void events.push('stop b'));
    throw new Error('b failed halfway');
  });
  await t.throwsAsync(halfway, { message: 'b failed halfway' });
  await stack.stop(0);
  t.deepEqual(events, ['start a', 'stop b', 'stop a']);
});

test('a failing stop is reported and the components below it still stop', async (t) => {
  const events: string[] = [];
  const stack = new Lifecycle();
  await stack.start('a', recorded(events, 'a'));
  await stack.start('b', (onStop) =>
    onStop(async () => {
      throw new Error('cannot close');
    }),
  );
  await stack.start('c', recorded(events, 'c'));
  const failures = await stack.stop(0);
  t.deepEqual(
    failures.map(({ name, err }) => [name, (err as Error).message]),
    [['b', 'cannot close']],
  );
  t.deepEqual(events, ['start a', 'start c', 'stop c', 'stop a']);
});

test('a group stops concurrently, as one step of the reverse order', async (t) => {
  const events: string[] = [];
  const stack = new Lifecycle();
  const releases: Array<() => void> = [];
  const slow = (name: string) => (onStop: OnStop) =>
    onStop(
      () =>
        new Promise<void>((resolve) => {
          events.push(`stop ${name} begins`);
          releases.push(() => {
            events.push(`stop ${name} ends`);
            resolve();
          });
        }),
    );
  await stack.start('store', recorded(events, 'store'));
  await stack.start('grpc', slow('grpc'), { group: 'listeners' });
  await stack.start('http', slow('http'), { group: 'listeners' });
  const stopped = stack.stop(0);
  // Both listeners began draining before either finished; what lies below waits for both.
  await until(() => releases.length === 2);
  t.deepEqual(events, ['start store', 'stop http begins', 'stop grpc begins']);
  releases.shift()?.();
  releases.shift()?.();
  await stopped;
  t.deepEqual(events.slice(3), ['stop http ends', 'stop grpc ends', 'stop store']);
});

test('failed at any start, the stack unwinds what started before it, in reverse, each once', async (t) => {
  for (let failing = 0; failing < 4; failing += 1) {
    const events: string[] = [];
    const stops: string[] = [];
    const hooks: LifecycleHooks = {
      start: async (name, start) => {
        if (name === `c${failing}`) throw new Error(`${name} failed`);
        return start();
      },
      stop: async (name, stop) => {
        stops.push(name);
        return stop();
      },
    };
    const stack = new Lifecycle(hooks);
    const run = async () => {
      for (let i = 0; i < 4; i += 1) await stack.start(`c${i}`, recorded(events, `c${i}`));
    };
    await t.throwsAsync(run(), { message: `c${failing} failed` });
    await stack.stop(0);
    const started = Array.from({ length: failing }, (_, i) => `c${i}`);
    t.deepEqual(events, [...started.map((name) => `start ${name}`), ...[...started].reverse().map((name) => `stop ${name}`)]);
    t.deepEqual(stops, [...started].reverse(), 'the stop hook sees every stop');
  }
});

/** Resolves once `condition` holds, checking on each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
