import { runEnsign } from '@ensign/testkit';
import test from 'ava';
import { parseCommandLine } from '../src/cli.js';
import { ConfigError, loadConfig } from '../src/config/config.loader.js';
import { cgroupCpuLimit, workerCountOf } from '../src/evaluator-cluster/worker-count.js';

const fromYaml = (yaml: string, env: Record<string, string> = {}) => loadConfig({ configPath: 'ensign.yml', env, readFile: () => yaml });

test('evaluator.workers: auto is kept as written and becomes one worker per CPU the process may use when it starts', (t) => {
  t.is(fromYaml('evaluator:\n  workers: auto').config.evaluator.workers, 'auto');
  t.is(fromYaml('', { ENSIGN_EVALUATOR_WORKERS: 'AUTO' }).config.evaluator.workers, 'auto');
  t.is(fromYaml('evaluator:\n  workers: 4', { ENSIGN_EVALUATOR_WORKERS: '3' }).config.evaluator.workers, 3, 'the environment wins over the file');
  t.is(workerCountOf('auto', () => 8, () => undefined), 8, 'every CPU of the affinity mask');
  t.is(workerCountOf('auto', () => 8, () => 2), 2, 'a CPU quota (docker --cpus 2) bounds it');
  t.is(workerCountOf(3, () => 1, () => 1), 3, 'a number is taken as written');
});

test('the CPU quota is read from cgroup v2, else v1; no quota means no bound', (t) => {
  const files = (entries: Record<string, string>) => (path: string) => {
    const text = entries[path];
    if (text === undefined) throw new Error(`ENOENT ${path}`);
    return text;
  };
  t.is(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': '250000 100000\n' })), 2, 'fractions round down');
  t.is(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': '50000 100000\n' })), 1, 'never below one');
  t.is(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' })), undefined);
  t.is(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '300000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' })), 3);
  t.is(cgroupCpuLimit(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' })), undefined);
  t.is(cgroupCpuLimit(files({})), undefined);
});

test('a bad evaluator.workers names the key', (t) => {
  for (const [yaml, got] of [
    ['evaluator:\n  workers: 0', '0'],
    ['evaluator:\n  workers: many', '"many"'],
    ['evaluator:\n  workers: 1.5', '1.5'],
  ]) {
    const err = t.throws(() => fromYaml(yaml as string), { instanceOf: ConfigError });
    t.is(err?.message, `evaluator.workers: must be a whole number of at least 1, or auto (got ${got})`);
  }
});

test('--workers takes a number or auto, on ensign evaluator only', (t) => {
  t.like(parseCommandLine(['evaluator', '--workers', '2']), { kind: 'run', command: 'evaluator', workers: 2 });
  t.like(parseCommandLine(['evaluator', '--workers', 'auto']), { kind: 'run', command: 'evaluator', workers: 'auto' });
  t.like(parseCommandLine(['evaluator']), { kind: 'run', command: 'evaluator', workers: undefined });
  t.like(parseCommandLine(['evaluator', '--workers', '0']), { kind: 'usage-error', message: '--workers: must be a whole number of at least 1, or auto (got "0")' });
  t.like(parseCommandLine(['server', '--workers', '2']), { kind: 'usage-error', message: 'unknown flag --workers for "ensign server"' });
});

test('ensign evaluator exits 2 with one line naming the setting when the worker count is bad', async (t) => {
  const env = { ENSIGN_NATS_URL: 'nats://127.0.0.1:4222' };
  const fromEnv = await runEnsign(['evaluator'], { env: { ...env, ENSIGN_EVALUATOR_WORKERS: 'half' } });
  t.is(fromEnv.code, 2, fromEnv.stderr);
  t.is(fromEnv.stderr, 'ensign: invalid configuration: evaluator.workers: must be a whole number of at least 1, or auto (got "half")\n');
  const fromFlag = await runEnsign(['evaluator', '--workers', 'none'], { env });
  t.is(fromFlag.code, 2, fromFlag.stderr);
  t.regex(fromFlag.stderr, /^ensign: --workers: must be a whole number of at least 1, or auto \(got "none"\)\n/);
});
