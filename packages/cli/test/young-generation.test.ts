/**
 * The young generation of `ensign evaluator` stays small under allocation churn, that of
 * `ensign server` grows to full size in one step, unless the operator tuned it.
 */
import { execFileSync } from 'node:child_process';
import test from 'ava';

const moduleUrl = new URL('../src/young-generation.js', import.meta.url).href;

/** Two 16 MiB semi-spaces (33.5 MB), V8's largest on 64-bit: anything at least this is full size. */
const FULL_MB = 32;

/**
 * The largest size, in MB, the new space reached while a child process that applied `policy` (none:
 * V8's default) churned through `objects` short-lived objects, about 20,000 of them alive at a time.
 * The largest, not the last: V8 also shrinks the young generation when allocation slows down by the
 * clock, as it does on a loaded machine, which says nothing of the setting.
 */
function newSpaceAfterChurn(policy: string | undefined, objects: number, nodeArgs: string[] = []): number {
  const tune = policy === undefined ? '' : `const { tuneYoungGeneration } = await import(${JSON.stringify(moduleUrl)}); tuneYoungGeneration(${JSON.stringify(policy)}, process.execArgv, process.env.NODE_OPTIONS);`;
  const script = `
    ${tune}
    const v8 = await import('node:v8');
    const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    let keep = [];
    let largest = newSpace();
    for (let i = 0; i < ${objects}; i++) {
      keep.push({ i, s: 'x' + i });
      if (keep.length > 20000) keep = [];
      if (i % 1000 === 0) largest = Math.max(largest, newSpace());
    }
    process.stdout.write(String(Math.max(largest, newSpace()) / 1e6));`;
  const out = execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return Number(out);
}


test('small: under churn the young generation stays at its initial size', (t) => {
  t.true(newSpaceAfterChurn('small', 2e6) <= 4, 'two 1 MB semi-spaces, not 2 × 16 MB');
});

test('regrow-at-once: a little churn takes the young generation to full size, where V8 alone is still doubling', (t) => {
  t.true(newSpaceAfterChurn('regrow-at-once', 1e5) >= FULL_MB);
  t.true(newSpaceAfterChurn(undefined, 1e5) < FULL_MB, 'the same churn without the setting');
});

test('an operator who sets the semi-space size keeps it, whichever the policy', (t) => {
  t.true(newSpaceAfterChurn('small', 2e6, ['--max-semi-space-size=8']) > 8);
  // The operator's factor of 2 is kept: still doubling, where the policy's 16 would be at full size.
  t.true(newSpaceAfterChurn('regrow-at-once', 1e5, ['--semi-space-growth-factor=2']) < FULL_MB);
});

test('the test can tell: without a setting the young generation grows under churn', (t) => {
  t.true(newSpaceAfterChurn(undefined, 2e6) > 8);
});
