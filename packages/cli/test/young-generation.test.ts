/** The young generation of `ensign evaluator` stays small under allocation churn, unless the operator tuned it. */
import { execFileSync } from 'node:child_process';
import test from 'ava';

const moduleUrl = new URL('../src/young-generation.js', import.meta.url).href;

/** The new space's size, in MB, after a child process that applied the setting churned through ~100 MB of short-lived objects. */
function newSpaceAfterChurn(nodeArgs: string[]): number {
  const script = `
    const { keepYoungGenerationSmall } = await import(${JSON.stringify(moduleUrl)});
    const v8 = await import('node:v8');
    keepYoungGenerationSmall(process.execArgv, process.env.NODE_OPTIONS);
    let keep = [];
    for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 1e6));`;
  const out = execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return Number(out);
}

test('under churn the young generation stays at its initial size', (t) => {
  t.true(newSpaceAfterChurn([]) <= 4, 'two 1 MB semi-spaces, not 2 × 16 MB');
});

test('an operator who sets the semi-space size keeps it', (t) => {
  t.true(newSpaceAfterChurn(['--max-semi-space-size=8']) > 8);
});

test('the test can tell the two apart: without the setting the young generation grows', (t) => {
  const grown = Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', `const v8 = await import('node:v8'); let keep = []; for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; } process.stdout.write(String(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1e6));`], { encoding: 'utf8' }),
  );
  t.true(grown > 8);
});
